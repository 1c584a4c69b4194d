package dev.proxypool.cli;

import dev.proxypool.cli.bench.BenchResult;
import dev.proxypool.sdk.json.JsonCodec;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/** Prints a {@link BenchResult}: lines for people or one JSON object for scripts. */
final class BenchOutput {

    private BenchOutput() {}

    /**
     * @param what   e.g. {@code gateway}
     * @param target what was driven, without secrets
     * @param extra  more counters for this kind of bench (e.g. proxies extracted)
     * @return the exit code: 0 when something succeeded, 1 when nothing did
     */
    static int print(
            CommandSpec spec, boolean json, String what, String target, BenchResult r, Map<String, Long> extra) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("bench", what);
            body.put("target", target);
            body.put("connections", r.connections());
            body.put("durationSeconds", round(r.elapsed().toNanos() / 1e9));
            body.put("requests", r.requests());
            body.put("ok", r.ok());
            body.put("errors", r.errors());
            body.put("errorsByKind", new LinkedHashMap<>(r.errorsByKind()));
            body.put("requestsPerSecond", round(r.requestsPerSecond()));
            body.put("okPerSecond", round(r.okPerSecond()));
            Map<String, Object> latency = new LinkedHashMap<>();
            latency.put("p50", round(r.percentileMillis(50)));
            latency.put("p95", round(r.percentileMillis(95)));
            latency.put("p99", round(r.percentileMillis(99)));
            latency.put("max", round(r.latencies().maxMicros() / 1000.0));
            latency.put("mean", round(r.latencies().meanMicros() / 1000.0));
            body.put("latencyMs", latency);
            body.putAll(extra);
            out.println(JsonCodec.write(body));
        } else {
            out.printf(
                    Locale.ROOT,
                    "bench %s: %s, %d connections, %.1f s%n",
                    what,
                    target,
                    r.connections(),
                    r.elapsed().toNanos() / 1e9);
            // a rate is the successful requests': a refused connection fails in microseconds, and
            // "57525 requests (28742 req/s)" of failures read as throughput
            out.printf(Locale.ROOT, "requests    %d (%d ok, %d failed)%n", r.requests(), r.ok(), r.errors());
            if (r.ok() == 0) {
                out.printf(Locale.ROOT, "ok          0 (no rate: every request failed)%n");
            } else {
                out.printf(Locale.ROOT, "ok          %d (%.1f req/s)%n", r.ok(), r.okPerSecond());
            }
            StringBuilder kinds = new StringBuilder();
            r.errorsByKind()
                    .forEach((k, v) -> kinds.append(kinds.isEmpty() ? " (" : ", ")
                            .append(k)
                            .append(' ')
                            .append(v));
            out.printf(Locale.ROOT, "errors      %d%s%n", r.errors(), kinds.isEmpty() ? "" : kinds + ")");
            if (r.ok() == 0) {
                out.printf(Locale.ROOT, "latency ms  none (no request succeeded)%n");
            } else {
                out.printf(
                        Locale.ROOT,
                        "latency ms  p50 %.2f  p95 %.2f  p99 %.2f  max %.2f  mean %.2f (successful requests)%n",
                        r.percentileMillis(50),
                        r.percentileMillis(95),
                        r.percentileMillis(99),
                        r.latencies().maxMicros() / 1000.0,
                        r.latencies().meanMicros() / 1000.0);
            }
            extra.forEach((k, v) -> out.printf(Locale.ROOT, "%-11s %d%n", k, v));
        }
        out.flush();
        if (r.ok() == 0) {
            return CliErrors.fail(
                    spec,
                    Main.EXIT_ERROR,
                    "no request succeeded (" + r.errors() + " failed"
                            + (r.errorsByKind().isEmpty() ? "" : ", mostly " + mostCommon(r.errorsByKind())) + ")",
                    null);
        }
        return Main.EXIT_OK;
    }

    private static String mostCommon(Map<String, Long> kinds) {
        return kinds.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey)
                .orElse("?");
    }

    private static double round(double d) {
        return Math.round(d * 100) / 100.0;
    }
}
