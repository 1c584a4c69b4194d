package dev.proxypool.benchmarks.redis;

import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;

/**
 * Two versions of the Redis store side by side (benchmarks/redis/run.sh --ab REV): each version's
 * benchmarks jar in a class loader of its own, each with a pool of its own in one Redis, count=1
 * 2-label extractions through its {@code RedisPoolStore.extract} in alternating rounds (quadruples in
 * ABBA order, then BAAB), so both are measured in the same minutes by the same JVM. A change of a few
 * percent is below the drift of these VMs between two runs or two JVMs (benchmarks/RESULTS.md,
 * session 27); within one quadruple the drift mostly cancels. Reports script µs per extraction
 * ({@code INFO commandstats}: EVALSHA and FCALL) per round, and per client count the mean difference of
 * the quadruples (new − old) with its standard error.
 *
 * <p>Arguments: {@code --port P --old-jar PATH --old-name NAME --new-jar PATH --new-name NAME
 * [--size N] [--quads Q] [--round N]}. A private Redis only: it resets the command statistics.
 */
public final class RedisAbBenchmark {

    private static final String HOST = "127.0.0.1";

    public static void main(String[] args) throws Exception {
        int port = 0;
        int size = 200_000;
        int quads = 10;
        int round = 2_500;
        String oldJar = null;
        String newJar = null;
        String oldName = "old";
        String newName = "new";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--size" -> size = Integer.parseInt(args[++i]);
                case "--quads" -> quads = Integer.parseInt(args[++i]);
                case "--round" -> round = Integer.parseInt(args[++i]);
                case "--old-jar" -> oldJar = args[++i];
                case "--new-jar" -> newJar = args[++i];
                case "--old-name" -> oldName = args[++i];
                case "--new-name" -> newName = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (port == 0 || oldJar == null || newJar == null) {
            throw new IllegalArgumentException("usage: --port P --old-jar PATH --new-jar PATH [--old-name N]"
                    + " [--new-name N] [--size N] [--quads Q] [--round N]");
        }
        // both pools are drained by the rounds of both client counts: warm-up and quadruples
        int perVersion = 2 * (2 + 2 * quads) * round;
        if (perVersion > size) {
            throw new IllegalArgumentException("--size " + size + " is too small for " + quads + " quadruples of "
                    + round + ": each pool needs " + perVersion);
        }
        Ticker ticker = Clocks.monotonic();
        byte[] driver = driverBytes();
        String[] names = {oldName, newName};
        Version[] versions = {
            new Version(oldName, Path.of(oldJar), driver), new Version(newName, Path.of(newJar), driver)
        };
        try (RedisClient admin = RedisClient.builder().hostAndPort(HOST, port).build()) {
            for (Version v : versions) {
                long start = ticker.read();
                v.open(port, size);
                System.err.printf(
                        Locale.ROOT, "%s: loaded %,d proxies in %.1f s%n", v.name, size, (ticker.read() - start) / 1e9);
            }
            System.out.println("| client threads | quadruples | " + names[0] + ": script µs per extraction, mean | "
                    + names[1] + ", mean | " + names[1] + " − " + names[0] + " per quadruple: mean (se) | median"
                    + " | quadruples where " + names[1] + " was lower |");
            System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
            StringBuilder rounds = new StringBuilder();
            long seed = 1;
            for (int threads : new int[] {1, 8}) {
                for (int warm = 0; warm < 2; warm++) { // the JIT of both versions, before any measured round
                    for (Version v : versions) {
                        measure(admin, v, threads, round, seed++);
                    }
                }
                double[] olds = new double[2 * quads];
                double[] news = new double[2 * quads];
                double[] diffs = new double[quads];
                for (int q = 0; q < quads; q++) {
                    // ABBA, then BAAB: a drift within a quadruple, and the order's own effect, cancel
                    int[] order = q % 2 == 0 ? new int[] {0, 1, 1, 0} : new int[] {1, 0, 0, 1};
                    int o = 0;
                    int n = 0;
                    for (int which : order) {
                        double us = measure(admin, versions[which], threads, round, seed++);
                        if (which == 0) {
                            olds[2 * q + o++] = us;
                        } else {
                            news[2 * q + n++] = us;
                        }
                    }
                    diffs[q] = (news[2 * q] + news[2 * q + 1]) / 2 - (olds[2 * q] + olds[2 * q + 1]) / 2;
                }
                int lower = (int) Arrays.stream(diffs).filter(d -> d < 0).count();
                System.out.printf(
                        Locale.ROOT,
                        "| %d | %d | %.2f | %.2f | %+.2f (%.2f) | %+.2f | %d |%n",
                        threads,
                        quads,
                        mean(olds),
                        mean(news),
                        mean(diffs),
                        standardError(diffs),
                        RedisExtractionBenchmark.median(diffs),
                        lower);
                rounds.append(String.format(
                        Locale.ROOT,
                        "%d client threads, rounds of %,d extractions (script µs per extraction):%n    %s:%s%n    %s:%s%n",
                        threads,
                        round,
                        names[0],
                        list(olds),
                        names[1],
                        list(news)));
            }
            System.out.println();
            System.out.print(rounds);
        } finally {
            for (Version v : versions) {
                v.close();
            }
        }
    }

    /** One round of {@code v}: script µs per extraction. */
    private static double measure(RedisClient admin, Version v, int threads, int extractions, long seed)
            throws Exception {
        admin.sendCommand(Protocol.Command.CONFIG, "RESETSTAT");
        v.run(threads, extractions, seed);
        long usec = 0;
        for (Map.Entry<String, long[]> e : RedisExtractionBenchmark.commandStats(admin.info("commandstats"))
                .entrySet()) {
            if (RedisExtractionBenchmark.SCRIPT_COMMANDS.contains(e.getKey())) {
                usec += e.getValue()[1];
            }
        }
        return usec / (double) ((extractions / threads) * threads);
    }

    /** The class file of {@link AbDriver}, defined anew in each version's loader. */
    private static byte[] driverBytes() throws IOException {
        String resource = AbDriver.class.getName().replace('.', '/') + ".class";
        try (InputStream in = RedisAbBenchmark.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no " + resource + " on the class path");
            }
            return in.readAllBytes();
        }
    }

    private static double mean(double[] values) {
        return Arrays.stream(values).average().orElse(Double.NaN);
    }

    private static double standardError(double[] values) {
        double m = mean(values);
        double ss = Arrays.stream(values).map(v -> (v - m) * (v - m)).sum();
        return Math.sqrt(ss / (values.length - 1) / values.length);
    }

    private static String list(double[] values) {
        StringBuilder b = new StringBuilder();
        for (double v : values) {
            b.append(String.format(Locale.ROOT, " %.2f", v));
        }
        return b.toString();
    }

    /** One version: its jar in a loader of its own (the platform loader its parent), and its driver. */
    private static final class Version implements AutoCloseable {

        private final String name;
        private final Path jar;
        private final byte[] driver;
        private URLClassLoader loader;
        private Object instance;
        private Method run;

        Version(String name, Path jar, byte[] driver) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalArgumentException(name + ": no jar at " + jar);
            }
            this.name = name;
            this.jar = jar;
            this.driver = driver;
        }

        void open(int port, int size) throws Exception {
            loader = new URLClassLoader(name, new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader()) {
                @Override
                protected Class<?> findClass(String className) throws ClassNotFoundException {
                    if (className.equals(AbDriver.class.getName())) { // this version's classes, this driver
                        return defineClass(className, driver, 0, driver.length);
                    }
                    return super.findClass(className);
                }
            };
            Class<?> type = loader.loadClass(AbDriver.class.getName());
            String prefix = "ppab:" + UUID.randomUUID() + ":";
            instance = invoke(() -> type.getConstructor(String.class, int.class, String.class, int.class)
                    .newInstance(HOST, port, prefix, size));
            run = type.getMethod("run", int.class, int.class, long.class);
        }

        void run(int threads, int extractions, long seed) throws Exception {
            invoke(() -> run.invoke(instance, threads, extractions, seed));
        }

        @Override
        public void close() throws Exception {
            if (instance instanceof AutoCloseable c) {
                c.close();
            }
            if (loader != null) {
                loader.close();
            }
        }

        /** {@code call}, with the version's own exception unwrapped from reflection's. */
        private static Object invoke(ReflectiveCall call) throws Exception {
            try {
                return call.call();
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof Exception cause) {
                    throw cause;
                }
                throw e;
            }
        }
    }

    /** A reflective call. */
    @FunctionalInterface
    private interface ReflectiveCall {
        Object call() throws Exception;
    }
}
