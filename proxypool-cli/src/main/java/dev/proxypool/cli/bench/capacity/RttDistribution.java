package dev.proxypool.cli.bench.capacity;

import java.time.Duration;
import java.util.Locale;
import java.util.random.RandomGenerator;

/**
 * How long a simulated upstream proxy takes before it answers: the round trip a real residential or
 * datacenter proxy adds (50 ms to 2 s), which sets a worker's limit by concurrency and memory rather
 * than CPU. Parsed from {@code fixed:200ms}, {@code uniform:50ms-400ms} or
 * {@code lognormal:200ms,1500ms} (median, P99).
 */
public sealed interface RttDistribution {

    /** Samples are capped so one unlucky draw cannot hold a connection past any sane timeout. */
    long MAX_MICROS = 30_000_000L;

    /** One round trip in microseconds. */
    long sampleMicros(RandomGenerator random);

    /** The configured median, in milliseconds (what the tests check the measured RTT against). */
    double medianMillis();

    /** The form {@link #parse} reads. */
    String describe();

    record Fixed(Duration rtt) implements RttDistribution {
        @Override
        public long sampleMicros(RandomGenerator random) {
            return Math.min(MAX_MICROS, rtt.toNanos() / 1000);
        }

        @Override
        public double medianMillis() {
            return rtt.toNanos() / 1e6;
        }

        @Override
        public String describe() {
            return "fixed:" + rtt.toMillis() + "ms";
        }
    }

    record Uniform(Duration min, Duration max) implements RttDistribution {
        public Uniform {
            if (max.compareTo(min) < 0) {
                throw new IllegalArgumentException("uniform RTT: max below min");
            }
        }

        @Override
        public long sampleMicros(RandomGenerator random) {
            long lo = min.toNanos() / 1000;
            long hi = max.toNanos() / 1000;
            return Math.min(MAX_MICROS, hi == lo ? lo : random.nextLong(lo, hi + 1));
        }

        @Override
        public double medianMillis() {
            return (min.toNanos() + max.toNanos()) / 2e6;
        }

        @Override
        public String describe() {
            return "uniform:" + min.toMillis() + "ms-" + max.toMillis() + "ms";
        }
    }

    /** Log-normal from its median and P99: sigma = ln(p99 / median) / z(0.99). */
    record LogNormal(Duration median, Duration p99) implements RttDistribution {
        private static final double Z99 = 2.3263478740408408;

        public LogNormal {
            if (p99.compareTo(median) < 0) {
                throw new IllegalArgumentException("log-normal RTT: P99 below the median");
            }
        }

        @Override
        public long sampleMicros(RandomGenerator random) {
            double mu = Math.log(median.toNanos() / 1000.0);
            double sigma = Math.log((double) p99.toNanos() / Math.max(1, median.toNanos())) / Z99;
            return Math.min(MAX_MICROS, Math.round(Math.exp(mu + sigma * random.nextGaussian())));
        }

        @Override
        public double medianMillis() {
            return median.toNanos() / 1e6;
        }

        @Override
        public String describe() {
            return "lognormal:" + median.toMillis() + "ms," + p99.toMillis() + "ms";
        }
    }

    static RttDistribution parse(String s) {
        String t = s.strip().toLowerCase(Locale.ROOT);
        int colon = t.indexOf(':');
        if (colon < 0) {
            return new Fixed(duration(t, s));
        }
        String kind = t.substring(0, colon);
        String args = t.substring(colon + 1);
        return switch (kind) {
            case "fixed" -> new Fixed(duration(args, s));
            case "uniform" -> {
                String[] p = args.split("-", 2);
                if (p.length != 2) {
                    throw new IllegalArgumentException("--rtt uniform:MIN-MAX, got '" + s + "'");
                }
                yield new Uniform(duration(p[0], s), duration(p[1], s));
            }
            case "lognormal" -> {
                String[] p = args.split(",", 2);
                if (p.length != 2) {
                    throw new IllegalArgumentException("--rtt lognormal:MEDIAN,P99, got '" + s + "'");
                }
                yield new LogNormal(duration(p[0], s), duration(p[1], s));
            }
            default ->
                throw new IllegalArgumentException(
                        "--rtt must be fixed:D, uniform:MIN-MAX or lognormal:MEDIAN,P99, got '" + s + "'");
        };
    }

    /** {@code 200ms}, {@code 1.5s}, {@code 200} (milliseconds). */
    static Duration duration(String v, String whole) {
        String t = v.strip();
        try {
            if (t.endsWith("ms")) {
                return Duration.ofNanos(Math.round(Double.parseDouble(t.substring(0, t.length() - 2)) * 1e6));
            }
            if (t.endsWith("s")) {
                return Duration.ofNanos(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1e9));
            }
            return Duration.ofNanos(Math.round(Double.parseDouble(t) * 1e6));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a duration: '" + v + "' in '" + whole + "'");
        }
    }
}
