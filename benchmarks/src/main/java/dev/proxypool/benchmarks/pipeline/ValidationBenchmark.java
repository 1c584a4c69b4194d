package dev.proxypool.benchmarks.pipeline;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import dev.proxypool.sdk.dial.UpstreamDialer;
import dev.proxypool.sdk.validate.EchoServer;
import dev.proxypool.sdk.validate.RejectReason;
import dev.proxypool.sdk.validate.ValidationSummary;
import dev.proxypool.sdk.validate.Validator;
import dev.proxypool.sdk.validate.ValidatorSettings;
import dev.proxypool.sdk.validate.Verdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Validation throughput and memory (issue 5, docs/design.md#collection-pipeline P8: "100,000+ candidates validate in
 * constant memory"): the SDK {@link Validator} over the full path (dial the fake proxy, request the
 * echo endpoint through it, judge exit address and leak headers) with a bounded queue, fed lazily
 * by {@link FakeFleet}, for each size in turn (default 10,000 then 100,000). Prints one markdown
 * row per size: candidates/s, verdicts, the most candidates held at once, the heap baseline, the
 * peak heap in use and the peak heap live after a GC.
 *
 * <p>Arguments: {@code [--sizes 10000,100000] [--concurrency 200] [--queue 400] [--timeout 5s]}.
 * Run through {@code benchmarks/pipeline/run.sh}.
 */
public final class ValidationBenchmark {

    private ValidationBenchmark() {}

    public static void main(String[] args) throws Exception {
        List<Long> sizes = List.of(10_000L, 100_000L);
        int concurrency = 200;
        int queue = 400;
        Duration timeout = Duration.ofSeconds(5);
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--sizes" -> {
                    List<Long> s = new ArrayList<>();
                    for (String v : args[++i].split(",")) {
                        s.add(Long.parseLong(v.trim()));
                    }
                    sizes = s;
                }
                case "--concurrency" -> concurrency = Integer.parseInt(args[++i]);
                case "--queue" -> queue = Integer.parseInt(args[++i]);
                case "--timeout" -> timeout = Duration.parse("PT" + args[++i].toUpperCase(Locale.ROOT));
                default ->
                    throw new IllegalArgumentException("unknown argument '" + args[i]
                            + "' (use --sizes N,M --concurrency C --queue Q --timeout 5s)");
            }
        }
        try (EchoServer echo = EchoServer.start();
                FakeFleet fleet = new FakeFleet()) {
            Validator validator = Validator.builder(UpstreamDialer.create(StaticCredentialStore.empty()))
                    .settings(ValidatorSettings.builder()
                            .echoUrl(echo.url())
                            .concurrency(concurrency)
                            .queueCapacity(queue)
                            .timeout(timeout)
                            .build())
                    .start();
            System.out.printf(
                    "# %d fake proxy servers + 6 dead ports, echo at %s, concurrency %d, queue %d, timeout %s, "
                            + "max heap %d MiB%n",
                    fleet.servers(),
                    echo.url(),
                    concurrency,
                    queue,
                    timeout,
                    Runtime.getRuntime().maxMemory() >> 20);
            run(validator, fleet, 2_000, true); // warm-up: JIT and connection paths
            System.out.println(
                    "| candidates | candidates/s | elapsed s | elite | anonymous | rejected (leak / direct / refused / other) "
                            + "| max held | heap baseline MiB | peak heap used MiB | peak live after GC MiB | GCs |");
            System.out.println("|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|");
            for (long n : sizes) {
                run(validator, fleet, n, false);
            }
        }
    }

    private static void run(Validator validator, FakeFleet fleet, long n, boolean warmUp) throws InterruptedException {
        AtomicLong wrongVerdicts = new AtomicLong();
        ValidationSummary s;
        HeapWatch.Peaks peaks;
        try (HeapWatch heap = new HeapWatch()) {
            Iterator<Proxy> source = fleet.candidates(n);
            s = validator.validateAll(
                    source,
                    n,
                    r -> {
                        long index = Long.parseLong(r.proxy().id().substring(1));
                        boolean accepted = r.verdict() != Verdict.REJECTED;
                        boolean shouldPass = switch (FakeFleet.kindOf(index)) {
                            case GOOD_HTTP, GOOD_SOCKS5, SLOW -> true;
                            case LEAKING, TRANSPARENT, DEAD -> false;
                        };
                        if (accepted != shouldPass) {
                            wrongVerdicts.incrementAndGet();
                        }
                    },
                    p -> {});
            peaks = heap.peaks();
        }
        if (wrongVerdicts.get() != 0) {
            throw new IllegalStateException(
                    wrongVerdicts.get() + " candidates got the wrong verdict in the run of " + n);
        }
        if (warmUp) {
            return;
        }
        Map<RejectReason, Long> why = s.rejectedByReason();
        long leak = why.getOrDefault(RejectReason.ADDRESS_LEAKED, 0L);
        long direct = why.getOrDefault(RejectReason.DIRECT_ADDRESS_SEEN, 0L);
        long refused = why.getOrDefault(RejectReason.CONNECTION_REFUSED, 0L);
        long other = s.rejected() - leak - direct - refused;
        String live =
                peaks.gcs() == 0 ? "no GC" : String.format(Locale.ROOT, "%.1f", mib(peaks.peakLiveAfterGcBytes()));
        System.out.printf(
                Locale.ROOT,
                "| %,d | %,.0f | %.1f | %,d | %,d | %,d (%,d / %,d / %,d / %,d) | %d | %.1f | %.1f | %s | %d |%n",
                n,
                s.candidatesPerSecond(),
                s.elapsed().toMillis() / 1000.0,
                s.elite(),
                s.anonymous(),
                s.rejected(),
                leak,
                direct,
                refused,
                other,
                s.maxHeldCandidates(),
                mib(peaks.baselineBytes()),
                mib(peaks.peakUsedBytes()),
                live,
                peaks.gcs());
    }

    private static double mib(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }
}
