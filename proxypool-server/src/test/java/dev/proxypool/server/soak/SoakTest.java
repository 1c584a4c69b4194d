package dev.proxypool.server.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.PageRequest;
import dev.proxypool.core.extract.PoolQuery;
import dev.proxypool.core.extract.ProxyPage;
import dev.proxypool.core.extract.ProxyState;
import dev.proxypool.core.extract.StoredProxy;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.runtime.ProxyRuntime;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.pipeline.PoolPublisher;
import dev.proxypool.sdk.pipeline.Publication;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.Pace;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.BitSet;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Soak (issue #9, scenario 7): the whole server (gateway + Distribution API) over a pool of fake
 * upstream proxies to a fake origin. First the peak is measured (closed loop, with the share of the
 * machine's CPU it took), then an open-loop load at 50% of it — half the machine the peak took, see
 * {@link RateControl} — runs for a warm-up ({@code proxypool.soak.warmupSeconds}, default 2
 * minutes, 6 above 10 minutes; the rate is set during it) and then at that fixed rate for
 * {@code proxypool.soak.minutes} measured minutes (default 3; the
 * 30-minute run is {@code benchmarks/soak/run.sh}) while 1% of the gateway's proxies churn per
 * minute (one killed and removed, one new added, through the engine's publish path) and
 * extraction drains and replenishes a separate upstream beside it. The server module runs it in a
 * surefire execution of its own (its own JVM, after the other tests). Promises checked:
 * <ul>
 *   <li>no more work per request at the end: this JVM's CPU time per gateway request in the
 *       last window not more than 20% above the first measured window's (asserted in every run;
 *       a leak or a growing structure on the request path shows here; it moved by −5% … +11% in
 *       every run so far — the host's speed moves it a little too);</li>
 *   <li>P99: the robust P99 (median of the P99s of a window's ten slices, see
 *       {@link GatewayLoad.Window}; the plain P99 is reported beside it) of the first measured
 *       window and of the last. {@code -Dproxypool.soak.p99Check=both} (set by {@code run.sh}):
 *       within ±20% plus {@code proxypool.soak.p99SlackMs} (default 1 ms); {@code upper}: not more
 *       than 20% (+1 ms) slower; {@code guard} (the default, the bounded run inside
 *       {@code ./mvnw verify}): not more than doubled (+2 ms); {@code report}: printed only. Why
 *       the bounded run asserts only the guard: it compares two single minutes, and on these
 *       2-vCPU virtual machines a minute of hypervisor steal moves a window's P99 by 30–60%
 *       (benchmarks/soak/RESULTS-soak.md); a server that slows down over the run still fails it.
 *       The guard is not applied when the hypervisor took more than {@value #GUARD_STEAL_RISE}
 *       points more of the machine in the last window than in the first (a run on a 2-vCPU VM
 *       went from 0.4 % to 23.9 % steal and its P99 from 4.8 to 19.6 ms, its CPU per request
 *       flat): the comparison then measures the host; the CPU per request check still runs.
 *       Every window's steal and machine busy share is reported;</li>
 *   <li>heap after a full GC, platform threads and open file descriptors flat from the first
 *       measured window to the end (sampled in a one-second pause of the load at each window
 *       boundary, so the sampling's GC pause is not charged to latency);</li>
 *   <li>once the load stops: no capacity held on any proxy (live or churned out), nothing in
 *       flight;</li>
 *   <li>extraction: no proxy handed out twice, every handed-out proxy one of those seeded, and
 *       handed-out + still available + expired unextracted = seeded;</li>
 *   <li>failed gateway requests are counted and bounded by the churn (a killed proxy's in-flight
 *       requests), none dropped by the client.</li>
 * </ul>
 * Figures go to stdout and, with {@code -Dproxypool.soak.report=<file>}, to a Markdown file;
 * {@code -Dproxypool.soak.slicesFile=<file>} also writes every slice's count, P50 and P99 (for
 * studying the latency statistic offline).
 */
class SoakTest {

    private static final String ORIGIN_UPSTREAM = "gw";
    private static final String EXTRACT_UPSTREAM = "ex";
    private static final int GATEWAY_PROXIES = 200;
    private static final int LOAD_THREADS = 32;
    private static final int BODY_BYTES = 512;
    private static final int EXTRACT_SEED = 400;
    private static final int EXTRACT_LOW_MARK = 150;
    private static final int EXTRACT_BATCH = 300;
    private static final Duration EXTRACT_TTL = Duration.ofMinutes(3);
    private static final long MIB = 1024 * 1024;
    /** No requests in the first second of each window: the heap sample's full GC runs there. */
    private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern HOST = Pattern.compile("\"host\"\\s*:\\s*\"([^\"]+)\"");

    @TempDir
    Path dir;

    /**
     * One sample at a window boundary. {@code loadAverage} is the machine's 1-minute load average;
     * the counters ({@code cpuNanos} of this JVM, its GC and JIT compilation milliseconds, the
     * machine's CPU jiffies from {@code /proc/stat}) are read before the sample's full GC and turn
     * into per-window figures by difference: they tell whether a window's latency moved with this
     * JVM's work per request (the server) or with CPU taken by others (the machine).
     */
    private record Resources(
            long heapAfterGc,
            int threads,
            long fds,
            String loadAverage,
            long cpuNanos,
            long gcMillis,
            long jitMillis,
            Jiffies machine) {}

    /** The machine's CPU time from the first line of {@code /proc/stat}: all, busy (not idle or iowait), stolen. */
    /** Rise of the steal share (points) from the first measured window to the last above which the P99 guard is off. */
    static final double GUARD_STEAL_RISE = 10.0;

    private record Jiffies(long total, long busy, long steal) {
        /** The busy share of the machine's CPU time since {@code earlier}, 0..1 (0 without figures). */
        double busyShareSince(Jiffies earlier) {
            long t = total - earlier.total;
            return t <= 0 ? 0 : (double) (busy - earlier.busy) / t;
        }

        static Jiffies read() {
            try {
                String[] f = Files.readAllLines(Path.of("/proc/stat"))
                        .getFirst()
                        .trim()
                        .split("\\s+");
                long total = 0;
                for (int i = 1; i < f.length && i <= 8; i++) {
                    total += Long.parseLong(f[i]);
                }
                long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
                long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
                return new Jiffies(total, total - idle - steal, steal);
            } catch (IOException | RuntimeException e) {
                return new Jiffies(0, 0, 0);
            }
        }
    }

    @Test
    void halfPeakLoadWithChurnAndExtractionStaysFlatAndLeaksNothing() throws Exception {
        double minutes = Double.parseDouble(System.getProperty("proxypool.soak.minutes", "3"));
        long windowSeconds = Long.getLong("proxypool.soak.windowSeconds", minutes > 10 ? 120 : 60);
        double p99SlackMs = Double.parseDouble(System.getProperty("proxypool.soak.p99SlackMs", "1"));
        // warm-up before the measured minutes, at the soak rate with churn and extraction running:
        // on these 2-vCPU machines the JIT keeps compiling for minutes and latency falls meanwhile
        // (RESULTS-soak.md), which is the JVM starting, not the server changing under load
        long warmupSeconds = Long.getLong("proxypool.soak.warmupSeconds", minutes > 10 ? 360 : 120);
        int warmupWindows = (int) Math.max(1, (warmupSeconds + windowSeconds - 1) / windowSeconds);
        int windowCount = warmupWindows + (int) Math.max(2, Math.round(minutes * 60 / windowSeconds));
        long windowNanos = TimeUnit.SECONDS.toNanos(windowSeconds);
        long churnEveryNanos = (long) (60e9 / (GATEWAY_PROXIES * 0.01));

        Deque<FakeHttpProxy> live = new ConcurrentLinkedDeque<>();
        AtomicBoolean stop = new AtomicBoolean();
        try (FakeOrigin origin = FakeOrigin.start()) {
            for (int i = 0; i < GATEWAY_PROXIES; i++) {
                live.addLast(FakeHttpProxy.start());
            }
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    clients: [{ name: alice, secret: alice-secret, token: alice-token-0123456789 }]
                    security: { allowDestinations: ["127.0.0.0/8"] }
                    health: { active: { enabled: false } }
                    routings:
                      - { name: soak, filter: { labels: { kind: gw } } }
                    """);
            Instant t0 = Instant.now();
            Seeds seeds = new Seeds();
            List<Proxy> initial = new ArrayList<>();
            for (FakeHttpProxy p : live) {
                initial.add(gatewayProxy(p));
            }
            initial.addAll(seeds.add(EXTRACT_SEED, t0.plus(EXTRACT_TTL)));
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                    .pool(b -> b.proxies(initial))
                    .start()) {
                PoolEngine engine = EmbeddedProxyPool.engineOf(server.pool());
                assertEquals(GATEWAY_PROXIES + EXTRACT_SEED, engine.snapshot().size(), "pool loaded");
                PoolPublisher publisher = new PoolPublisher(engine, engine.wallClock());
                String auth = "Basic "
                        + Base64.getEncoder().encodeToString("alice:alice-secret".getBytes(StandardCharsets.UTF_8));
                GatewayLoad load = new GatewayLoad(
                        new InetSocketAddress("127.0.0.1", server.gatewayPort()), origin.authority(), BODY_BYTES, auth);

                // 1. the peak, closed loop (its first seconds also warm the JIT), and the share of
                // the machine's CPU it took
                Jiffies beforePeak = Jiffies.read();
                double peak = load.closedLoop(LOAD_THREADS, TimeUnit.SECONDS.toNanos(4), TimeUnit.SECONDS.toNanos(10));
                double peakBusy = Jiffies.read().busyShareSince(beforePeak);
                assertTrue(peak > 50, "peak through the gateway: " + peak + " req/s");
                awaitIdle(server);

                // 2. half of it, open loop, with churn and extraction beside it
                List<ProxyRuntime> churnedRuntimes = new CopyOnWriteArrayList<>();
                AtomicLong churns = new AtomicLong();
                Thread churn = Thread.ofPlatform()
                        .name("soak-churn")
                        .daemon(true)
                        .start(() -> {
                            long next = System.nanoTime() + churnEveryNanos;
                            while (!stop.get()) {
                                if (System.nanoTime() < next) {
                                    sleepMs(50);
                                    continue;
                                }
                                next += churnEveryNanos;
                                FakeHttpProxy victim = live.pollFirst();
                                Proxy gone = gatewayProxy(victim);
                                engine.runtime(gone.id()).ifPresent(churnedRuntimes::add);
                                victim.close(); // the proxy dies first; the pool learns of it on the publish below
                                FakeHttpProxy fresh = FakeHttpProxy.start();
                                live.addLast(fresh);
                                publisher.publish(Publication.builder()
                                        .publish(ORIGIN_UPSTREAM, List.of(gatewayProxy(fresh)))
                                        .remove(List.of(gone.id()))
                                        .build());
                                churns.incrementAndGet();
                            }
                        });
                Extractor extractor = new Extractor(server.apiPort(), engine, publisher, seeds, stop);
                Thread extraction =
                        Thread.ofPlatform().name("soak-extract").daemon(true).start(extractor);

                GatewayLoad.Window[] windows = new GatewayLoad.Window[windowCount];
                for (int i = 0; i < windowCount; i++) {
                    windows[i] = new GatewayLoad.Window();
                }
                Resources[] samples = new Resources[windowCount + 1];
                samples[0] = resources();
                long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
                RateControl rate = new RateControl(peak, peakBusy);
                Thread control = Thread.ofPlatform()
                        .name("soak-rate")
                        .daemon(true)
                        .start(() -> rate.run(start, windowNanos, warmupWindows, stop));
                Thread sampler = Thread.ofPlatform()
                        .name("soak-sampler")
                        .daemon(true)
                        .start(() -> {
                            for (int i = 1; i <= windowCount; i++) {
                                long at = start + i * windowNanos + (i < windowCount ? QUIET_NANOS / 4 : 0);
                                sleepUntil(at);
                                samples[i] = resources();
                            }
                        });
                load.openLoop(rate.interval, start, windowNanos, QUIET_NANOS, windows, LOAD_THREADS);
                sampler.join(windowNanos / 1_000_000 + 60_000);
                stop.set(true);
                control.join(60_000);
                churn.join(60_000);
                extraction.join(60_000);

                // 3. nothing held once the load stops
                awaitIdle(server);
                Resources end = resources();
                int held = 0;
                for (ProxyRuntime rt : engine.registry().all()) {
                    held += rt.capacity().inFlight();
                }
                int heldChurned = 0;
                for (ProxyRuntime rt : churnedRuntimes) {
                    heldChurned += rt.capacity().inFlight();
                }

                // 4. extraction accounting
                BitSet remaining = remaining(engine);
                Instant now = engine.wallClock().instant();
                int expiredUnextracted = 0;
                int unaccounted = 0;
                int seeded = seeds.size();
                for (int i = 0; i < seeded; i++) {
                    boolean handed = seeds.handedOut(i);
                    if (handed && remaining.get(i)) {
                        unaccounted++; // handed out and still available: never allowed
                    } else if (!handed && !remaining.get(i)) {
                        if (!now.isBefore(seeds.expiresAt(i))) {
                            expiredUnextracted++;
                        } else {
                            unaccounted++;
                        }
                    }
                }

                Report report = new Report(
                        minutes,
                        windowSeconds,
                        warmupWindows,
                        rate,
                        windows,
                        samples,
                        end,
                        churns.get(),
                        extractor,
                        seeded,
                        remaining.cardinality(),
                        expiredUnextracted,
                        held,
                        heldChurned,
                        server.gatewayEngine().inFlight());
                String text = report.markdown();
                System.out.println(text);
                String slicesFile = System.getProperty("proxypool.soak.slicesFile");
                if (slicesFile != null && !slicesFile.isBlank()) {
                    StringBuilder sl = new StringBuilder("window slice count p50us p99us\n");
                    for (int i = 0; i < windowCount; i++) {
                        for (int k = 0; k < GatewayLoad.Window.SLICES; k++) {
                            LatencyHistogram h = windows[i].slices[k];
                            sl.append(i)
                                    .append(' ')
                                    .append(k)
                                    .append(' ')
                                    .append(h.count())
                                    .append(' ')
                                    .append(h.quantile(0.5))
                                    .append(' ')
                                    .append(h.quantile(0.99))
                                    .append('\n');
                        }
                    }
                    Files.writeString(Path.of(slicesFile), sl);
                }
                String file = System.getProperty("proxypool.soak.report");
                if (file != null && !file.isBlank()) {
                    Files.writeString(Path.of(file), text);
                }

                assertEquals(0, held, "capacity held on live proxies after the load");
                assertEquals(0, heldChurned, "capacity held on churned-out proxies after the load");
                assertEquals(0, server.gatewayEngine().inFlight(), "gateway attempts in flight");
                assertEquals(0, extractor.duplicates.get(), "proxies handed out twice");
                assertEquals(0, extractor.foreign.get(), "handed-out proxies that were never seeded for extraction");
                assertEquals(0, unaccounted, "seeded extraction proxies neither handed out, available nor expired");
                assertEquals(
                        seeded,
                        seeds.handedOutCount() + remaining.cardinality() + expiredUnextracted,
                        "handed out + remaining + expired = seeded");
                assertEquals(0, extractor.failures.get(), "failed extraction calls");
                assertTrue(seeds.handedOutCount() > 0, "extraction ran");
                assertTrue(
                        churns.get() >= Math.max(1, (long) (minutes * GATEWAY_PROXIES * 0.01) - 1),
                        "churn events: " + churns.get());
                long dropped = report.sum(w -> w.dropped.sum());
                assertEquals(0, dropped, "requests the client could not even send (client saturated)");
                long failed = report.sum(w -> w.failed.sum());
                assertTrue(
                        failed <= churns.get() * 4,
                        "failed gateway requests " + failed + " beyond what " + churns.get()
                                + " killed proxies explain");
                assertTrue(report.sum(w -> w.ok.sum()) > 0, "requests served");

                Resources first = samples[warmupWindows];
                Resources last = samples[windowCount - 1]; // the last boundary under load, like the first
                for (Resources r : new Resources[] {last, end}) {
                    String when = r == end ? " (after the load)" : " (last window boundary)";
                    assertTrue(
                            r.heapAfterGc() <= first.heapAfterGc() * 1.10 + 8 * MIB,
                            "heap after GC grew" + when + ": " + first.heapAfterGc() / MIB + " MiB -> "
                                    + r.heapAfterGc() / MIB + " MiB");
                    assertTrue(
                            r.threads() <= first.threads() + Math.max(4, first.threads() / 10),
                            "platform threads grew" + when + ": " + first.threads() + " -> " + r.threads());
                    assertTrue(
                            r.fds() <= first.fds() + Math.max(16, first.fds() / 10),
                            "file descriptors grew" + when + ": " + first.fds() + " -> " + r.fds());
                }
                // the server's own work per request, flat: this JVM's CPU time per gateway request
                // (load generator, fake proxies and origin included) moves with what the code does
                // per request and not with CPU the hypervisor or other processes take
                double cpuFirst = cpuMicrosPerRequest(windows, samples, warmupWindows);
                double cpuLast = cpuMicrosPerRequest(windows, samples, windowCount - 1);
                assertTrue(
                        cpuLast <= cpuFirst * 1.20,
                        String.format(
                                Locale.ROOT,
                                "JVM CPU per request first measured window %.0f µs, last %.0f µs: more than 20%% more work per request",
                                cpuFirst,
                                cpuLast));
                long p99First = windows[warmupWindows].robustP99();
                long p99Last = windows[windowCount - 1].robustP99();
                String p99s = "robust P99 first measured window " + p99First + " µs, last " + p99Last + " µs (steal "
                        + stealPercent(samples, warmupWindows) + "% and " + stealPercent(samples, windowCount - 1)
                        + "%)";
                double tolerance = p99First * 0.20 + p99SlackMs * 1000;
                switch (System.getProperty("proxypool.soak.p99Check", "guard")) {
                    case "both" -> {
                        assertTrue(
                                p99Last - p99First <= tolerance,
                                p99s + ": slower by more than 20% (+" + p99SlackMs + " ms)");
                        assertTrue(
                                p99First - p99Last <= tolerance,
                                p99s + ": faster by more than 20% (+" + p99SlackMs + " ms)");
                    }
                    case "upper" ->
                        assertTrue(
                                p99Last - p99First <= tolerance,
                                p99s + ": slower by more than 20% (+" + p99SlackMs + " ms)");
                    case "guard" -> {
                        double stealRise = stealShare(samples, windowCount - 1) - stealShare(samples, warmupWindows);
                        if (stealRise > GUARD_STEAL_RISE) { // NaN (no figures) compares false: guarded
                            System.out.printf(
                                    Locale.ROOT,
                                    "%s: P99 guard not applied, the hypervisor took %.1f points more of the"
                                            + " machine in the last window (the CPU per request check holds)%n",
                                    p99s,
                                    stealRise);
                        } else {
                            assertTrue(p99Last <= 2 * p99First + 2_000, p99s + ": more than doubled (+2 ms)");
                        }
                    }
                    case "report" -> {}
                    default ->
                        throw new IllegalArgumentException(
                                "proxypool.soak.p99Check: expected both, upper, guard or report");
                }
            } finally {
                stop.set(true);
                for (FakeHttpProxy p : live) {
                    p.close();
                }
            }
        }
    }

    private static Proxy gatewayProxy(FakeHttpProxy p) {
        return Proxy.builder(new ProxyKey(Protocol.HTTP, "127.0.0.1", p.port(), CredentialRef.NONE))
                .provider("soak")
                .upstream(ORIGIN_UPSTREAM)
                .labels(Labels.of("kind", "gw"))
                .maxConcurrency(64)
                .build();
    }

    /**
     * The extraction upstream's proxies, numbered in the order they were seeded: index {@code i}
     * is {@code 10.(100 + i/65536).(i/256 % 256).(i % 256):8000} (never dialled: extraction only
     * hands them out). Kept as batches and bit sets, so the bookkeeping of a 30-minute run (about
     * 100,000 proxies) does not itself grow the heap the soak watches.
     */
    static final class Seeds {
        private final TreeMap<Integer, Instant> batches = new TreeMap<>();
        private final BitSet handed = new BitSet();
        private int next;
        private int handedCount;

        synchronized List<Proxy> add(int count, Instant expiresAt) {
            batches.put(next, expiresAt);
            List<Proxy> out = new ArrayList<>(count);
            for (int i = next; i < next + count; i++) {
                out.add(proxy(i, expiresAt));
            }
            next += count;
            return out;
        }

        static Proxy proxy(int i, Instant expiresAt) {
            String host = "10." + (100 + (i >> 16)) + "." + ((i >> 8) & 0xFF) + "." + (i & 0xFF);
            return Proxy.builder(new ProxyKey(Protocol.HTTP, host, 8000, CredentialRef.NONE))
                    .provider("soak")
                    .upstream(EXTRACT_UPSTREAM)
                    .labels(Labels.of("kind", "ex"))
                    .expiresAt(expiresAt)
                    .build();
        }

        /** The seed index of {@code host}, or -1 when it is not an address this class hands out. */
        static int index(String host) {
            String[] p = host.split("\\.");
            if (p.length != 4 || !p[0].equals("10")) {
                return -1;
            }
            try {
                int a = Integer.parseInt(p[1]) - 100;
                int b = Integer.parseInt(p[2]);
                int c = Integer.parseInt(p[3]);
                return a < 0 || b > 255 || c > 255 ? -1 : (a << 16) | (b << 8) | c;
            } catch (NumberFormatException e) {
                return -1;
            }
        }

        synchronized int size() {
            return next;
        }

        synchronized Instant expiresAt(int i) {
            return batches.floorEntry(i).getValue();
        }

        /**
         * Records that {@code id} at {@code host} was handed out: false if that proxy had been
         * handed out before; throws {@link IllegalArgumentException} when it was never seeded.
         */
        synchronized boolean handOut(String id, String host) {
            int i = index(host);
            if (i < 0 || i >= next || !proxy(i, expiresAt(i)).id().equals(id)) {
                throw new IllegalArgumentException("not a seeded extraction proxy: " + id);
            }
            if (handed.get(i)) {
                return false;
            }
            handed.set(i);
            handedCount++;
            return true;
        }

        synchronized boolean handedOut(int i) {
            return handed.get(i);
        }

        synchronized int handedOutCount() {
            return handedCount;
        }
    }

    /** Seed indexes of the extraction upstream's proxies still available in the store. */
    private static BitSet remaining(PoolEngine engine) {
        BitSet ids = new BitSet();
        PoolQuery q = new PoolQuery(
                ExtractionFilter.builder().upstream(EXTRACT_UPSTREAM).build(), Optional.of(ProxyState.AVAILABLE));
        String cursor = PageRequest.FIRST;
        for (int page = 0; page < 10_000; page++) {
            ProxyPage p = engine.store().list(q, new PageRequest(cursor, PageRequest.MAX_LIMIT));
            for (StoredProxy sp : p.proxies()) {
                int index = Seeds.index(sp.proxy().key().host());
                assertTrue(index >= 0, "not a seeded extraction proxy in the extraction upstream");
                ids.set(index);
            }
            cursor = p.nextCursor();
            if (cursor == null || cursor.isEmpty()) {
                break;
            }
        }
        return ids;
    }

    private static void awaitIdle(ProxyPoolServer server) {
        Await.atMost(Duration.ofSeconds(20))
                .until(
                        "no gateway attempt and no capacity reservation in flight",
                        () -> "gateway attempts " + server.gatewayEngine().inFlight() + ", reservations "
                                + EmbeddedProxyPool.engineOf(server.pool()).inFlight(),
                        s -> s.equals("gateway attempts 0, reservations 0"));
    }

    /** This JVM's CPU time per gateway request in window {@code i}, in microseconds. */
    static double cpuMicrosPerRequest(GatewayLoad.Window[] windows, Resources[] samples, int i) {
        long requests = windows[i].ok.sum() + windows[i].failed.sum();
        return requests == 0 ? 0 : (samples[i + 1].cpuNanos() - samples[i].cpuNanos()) / 1000.0 / requests;
    }

    /** The share of the machine's CPU time the hypervisor took (steal) during window {@code i}, in percent. */
    static String stealPercent(Resources[] samples, int i) {
        return machinePercent(samples, i, Jiffies::steal, "%.1f");
    }

    /** The same as a number; NaN without figures. */
    static double stealShare(Resources[] samples, int i) {
        return machineShare(samples, i, Jiffies::steal);
    }

    /** {@code part}'s share of the machine's CPU time during window {@code i}, formatted; "?" without figures. */
    static String machinePercent(
            Resources[] samples, int i, java.util.function.ToLongFunction<Jiffies> part, String format) {
        double share = machineShare(samples, i, part);
        return Double.isNaN(share) ? "?" : String.format(Locale.ROOT, format, share);
    }

    /** {@code part}'s share of the machine's CPU time during window {@code i}, in percent; NaN without figures. */
    static double machineShare(Resources[] samples, int i, java.util.function.ToLongFunction<Jiffies> part) {
        Jiffies from = samples[i].machine();
        Jiffies to = samples[i + 1].machine();
        long total = to.total() - from.total();
        return total <= 0 ? Double.NaN : 100.0 * (part.applyAsLong(to) - part.applyAsLong(from)) / total;
    }

    /** Heap used after a full GC, live platform threads, open file descriptors of this JVM. */
    static Resources resources() {
        long cpu = ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class)
                .getProcessCpuTime();
        long gc = 0;
        for (var b : ManagementFactory.getGarbageCollectorMXBeans()) {
            gc += Math.max(0, b.getCollectionTime());
        }
        var jit = ManagementFactory.getCompilationMXBean();
        long jitMs = jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
        Jiffies machine = Jiffies.read();
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();
        long fds;
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            fds = s.count();
        } catch (IOException e) {
            throw new IllegalStateException("cannot count /proc/self/fd", e);
        }
        String load;
        try {
            load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException e) {
            load = "?";
        }
        return new Resources(heap, threads, fds, load, cpu, gc, jitMs, machine);
    }

    /** Sleeps until {@link System#nanoTime()} reaches {@code at}. */
    static void sleepUntil(long at) {
        for (long w = at - System.nanoTime(); w > 0; w = at - System.nanoTime()) {
            sleepMs(Math.min(200, Math.max(1, w / 1_000_000)));
        }
    }

    /** Paces a soak thread: its schedule, not a wait for a condition. */
    static void sleepMs(long ms) {
        Pace.sleepMillis(ms);
    }

    /**
     * Extraction beside the load: {@code POST /v1/extractions} of 1..5 proxies of the extraction
     * upstream every 50 ms; the upstream is replenished (through the engine's publish path) when
     * fewer than {@value #EXTRACT_LOW_MARK} are available.
     */
    static final class Extractor implements Runnable {
        final AtomicLong duplicates = new AtomicLong();
        final AtomicLong foreign = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final AtomicLong calls = new AtomicLong();
        final AtomicLong replenished = new AtomicLong();
        private final URI uri;
        private final PoolEngine engine;
        private final PoolPublisher publisher;
        private final Seeds seeds;
        private final AtomicBoolean stop;

        Extractor(int apiPort, PoolEngine engine, PoolPublisher publisher, Seeds seeds, AtomicBoolean stop) {
            this.uri = URI.create("http://127.0.0.1:" + apiPort + "/v1/extractions");
            this.engine = engine;
            this.publisher = publisher;
            this.seeds = seeds;
            this.stop = stop;
        }

        @Override
        public void run() {
            SplittableRandom rnd = new SplittableRandom(7);
            try (HttpClient http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10))
                    .build()) {
                while (!stop.get()) {
                    if (engine.store().available(EXTRACT_UPSTREAM) < EXTRACT_LOW_MARK) {
                        List<Proxy> batch = seeds.add(
                                EXTRACT_BATCH, engine.wallClock().instant().plus(EXTRACT_TTL));
                        publisher.publish(Publication.builder()
                                .publish(EXTRACT_UPSTREAM, batch)
                                .build());
                        replenished.addAndGet(batch.size());
                    }
                    int count = 1 + rnd.nextInt(5);
                    String body =
                            "{\"count\": " + count + ", \"fulfillment\": \"partial\", \"filter\": {\"upstream\": \""
                                    + EXTRACT_UPSTREAM + "\"}}";
                    try {
                        HttpResponse<String> r = http.send(
                                HttpRequest.newBuilder(uri)
                                        .timeout(Duration.ofSeconds(20))
                                        .header("Authorization", "Bearer alice-token-0123456789")
                                        .header("Content-Type", "application/json")
                                        .POST(HttpRequest.BodyPublishers.ofString(body))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                        calls.incrementAndGet();
                        if (r.statusCode() != 200) {
                            failures.incrementAndGet();
                            System.err.println("extraction: " + r.statusCode() + " " + r.body());
                        } else {
                            Matcher ids = ID.matcher(r.body());
                            Matcher hosts = HOST.matcher(r.body());
                            while (ids.find()) {
                                if (!hosts.find()) {
                                    foreign.incrementAndGet();
                                    continue;
                                }
                                try {
                                    if (!seeds.handOut(ids.group(1), hosts.group(1))) {
                                        duplicates.incrementAndGet();
                                    }
                                } catch (IllegalArgumentException e) {
                                    foreign.incrementAndGet();
                                }
                            }
                        }
                    } catch (IOException e) {
                        failures.incrementAndGet();
                        System.err.println("extraction: " + e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    sleepMs(50);
                }
            }
        }
    }

    /**
     * The soak rate: 50% of the measured peak, as a share of the machine. The closed-loop peak
     * saturates the machine (its busy share is measured); an open-loop load at half that
     * <em>request rate</em> is not half the CPU — every request of an open loop pays a thread
     * park/unpark the closed loop does not, and the JIT may still be compiling — and on these
     * 2-vCPU machines it kept them 85–95% busy, where P99 is queueing, not the server
     * (RESULTS-soak.md). So the rate starts at 60% of half the peak and, during the warm-up, is
     * set every step (about 20 s, avoiding each window's quiet first seconds) so the machine runs
     * at half the busy share the peak took: rate × target / busy measured over the last step,
     * moved by at most −25% / +33% per step and never above half the peak request rate. The last
     * warm-up step only observes, and the rate is then fixed for the measured windows.
     */
    static final class RateControl {
        private static final double MIN_RATE = 50;
        final double peak;
        final double peakBusy;
        final AtomicLong interval = new AtomicLong();
        private final List<String> steps = new CopyOnWriteArrayList<>();
        private volatile double rate;

        RateControl(double peak, double peakBusy) {
            this.peak = peak;
            this.peakBusy = peakBusy;
            set(Math.max(MIN_RATE, peak / 2 * 0.6));
        }

        double rate() {
            return rate;
        }

        double targetBusy() {
            return peakBusy / 2;
        }

        private void set(double r) {
            rate = r;
            interval.set(Math.max(1, (long) (1e9 / r)));
        }

        /** Steps through the warm-up windows from {@code start} (a {@link System#nanoTime()} value); bounded by them. */
        void run(long start, long windowNanos, int warmupWindows, AtomicBoolean stop) {
            int perWindow = (int) Math.max(2, TimeUnit.NANOSECONDS.toSeconds(windowNanos) / 20);
            long lead = 2 * QUIET_NANOS; // the quiet gap and the boundary sample's GC
            long step = (windowNanos - lead) / perWindow;
            int total = warmupWindows * perWindow;
            int n = 0;
            for (int w = 0; w < warmupWindows && !stop.get(); w++) {
                long from = start + w * windowNanos + lead;
                sleepUntil(from);
                Jiffies prev = Jiffies.read();
                for (int k = 1; k <= perWindow && !stop.get(); k++) {
                    sleepUntil(from + k * step);
                    Jiffies now = Jiffies.read();
                    double busy = now.busyShareSince(prev);
                    prev = now;
                    n++;
                    double before = rate;
                    if (n < total && busy > 0) {
                        double next = before * targetBusy() / busy;
                        next = Math.min(before * 1.33, Math.max(before * 0.75, next));
                        set(Math.max(MIN_RATE, Math.min(peak / 2, next)));
                    }
                    steps.add(String.format(Locale.ROOT, "%.0f req/s → busy %.0f%%", before, 100 * busy));
                }
            }
        }

        String describe() {
            return String.format(
                    Locale.ROOT,
                    "Rate: %.1f%% of a closed-loop peak of %.0f req/s that kept the machine %.0f%% busy; "
                            + "set in the warm-up for half that busy share (%.0f%%), steps: %s",
                    100 * rate / peak,
                    peak,
                    100 * peakBusy,
                    100 * targetBusy(),
                    String.join("; ", steps));
        }
    }

    /** The run's figures as Markdown. */
    private record Report(
            double minutes,
            long windowSeconds,
            int warmupWindows,
            RateControl rate,
            GatewayLoad.Window[] windows,
            Resources[] samples,
            Resources end,
            long churns,
            Extractor extractor,
            int seeded,
            int remaining,
            int expiredUnextracted,
            int held,
            int heldChurned,
            int gatewayInFlight) {

        long sum(java.util.function.ToLongFunction<GatewayLoad.Window> f) {
            long n = 0;
            for (GatewayLoad.Window w : windows) {
                n += f.applyAsLong(w);
            }
            return n;
        }

        String markdown() {
            StringBuilder sb = new StringBuilder();
            sb.append(String.format(
                    Locale.ROOT,
                    "Soak: %.1f min at %.0f req/s after %d warm-up windows, %d s windows, "
                            + "%d gateway proxies, %d churn events%n",
                    minutes,
                    rate.rate(),
                    warmupWindows,
                    windowSeconds,
                    GATEWAY_PROXIES,
                    churns));
            sb.append(rate.describe()).append(String.format("%n%n"));
            sb.append(
                    "| window | ok | failed | dropped | P50 ms | P99 ms | robust P99 ms | max ms | heap after GC MiB at its end "
                            + "| platform threads | fds | load avg | JVM CPU µs/req | GC ms | JIT ms | machine busy % | steal % |\n");
            sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
            for (int i = 0; i < windows.length; i++) {
                GatewayLoad.Window w = windows[i];
                Resources r = samples[i + 1];
                Resources b = samples[i];
                String cpu = "-";
                String gc = "-";
                String jit = "-";
                String busy = "-";
                String steal = "-";
                if (r != null && b != null) {
                    cpu = String.format(Locale.ROOT, "%.0f", cpuMicrosPerRequest(windows, samples, i));
                    gc = String.valueOf(r.gcMillis() - b.gcMillis());
                    jit = String.valueOf(r.jitMillis() - b.jitMillis());
                    steal = stealPercent(samples, i);
                    busy = machinePercent(samples, i, Jiffies::busy, "%.0f");
                }
                sb.append(String.format(
                        Locale.ROOT,
                        "| %d%s | %d | %d | %d | %.2f | %.2f | %.2f | %.2f | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                        i,
                        i < warmupWindows ? " (warm-up)" : "",
                        w.ok.sum(),
                        w.failed.sum(),
                        w.dropped.sum(),
                        w.latency.quantile(0.50) / 1000.0,
                        w.latency.quantile(0.99) / 1000.0,
                        w.robustP99() / 1000.0,
                        w.latency.quantile(1.0) / 1000.0,
                        r == null ? "-" : String.valueOf(r.heapAfterGc() / MIB),
                        r == null ? "-" : String.valueOf(r.threads()),
                        r == null ? "-" : String.valueOf(r.fds()),
                        r == null ? "-" : r.loadAverage(),
                        cpu,
                        gc,
                        jit,
                        busy,
                        steal));
            }
            Resources first = samples[warmupWindows];
            Resources last = samples[windows.length - 1];
            GatewayLoad.Window w0 = windows[warmupWindows];
            GatewayLoad.Window wn = windows[windows.length - 1];
            long p99First = w0.latency.quantile(0.99);
            long p99Last = wn.latency.quantile(0.99);
            long rFirst = w0.robustP99();
            long rLast = wn.robustP99();
            sb.append(String.format(
                    Locale.ROOT,
                    "%nRobust P99 (median of 10 slices' P99) first measured window (%d) %.2f ms, "
                            + "last %.2f ms (%+.1f%%); plain P99 first %.2f ms, last %.2f ms (%+.1f%%)%n",
                    warmupWindows,
                    rFirst / 1000.0,
                    rLast / 1000.0,
                    rFirst == 0 ? 0.0 : 100.0 * (rLast - rFirst) / rFirst,
                    p99First / 1000.0,
                    p99Last / 1000.0,
                    p99First == 0 ? 0.0 : 100.0 * (p99Last - p99First) / p99First));
            double cpuFirst = cpuMicrosPerRequest(windows, samples, warmupWindows);
            double cpuLast = cpuMicrosPerRequest(windows, samples, windows.length - 1);
            sb.append(String.format(
                    Locale.ROOT,
                    "JVM CPU per request first measured window %.0f µs, last %.0f µs (%+.1f%%); "
                            + "steal %s%% and %s%%%n",
                    cpuFirst,
                    cpuLast,
                    cpuFirst == 0 ? 0.0 : 100.0 * (cpuLast - cpuFirst) / cpuFirst,
                    stealPercent(samples, warmupWindows),
                    stealPercent(samples, windows.length - 1)));
            sb.append(String.format(
                    Locale.ROOT,
                    "Start of the first measured window: heap after GC %d MiB, platform threads %d, "
                            + "fds %d; start of the last window: %d MiB, %d, %d; after the load: %d MiB, %d, %d%n",
                    first.heapAfterGc() / MIB,
                    first.threads(),
                    first.fds(),
                    last.heapAfterGc() / MIB,
                    last.threads(),
                    last.fds(),
                    end.heapAfterGc() / MIB,
                    end.threads(),
                    end.fds()));
            sb.append(String.format(
                    Locale.ROOT,
                    "Gateway requests: %d ok, %d failed, %d dropped%n",
                    sum(w -> w.ok.sum()),
                    sum(w -> w.failed.sum()),
                    sum(w -> w.dropped.sum())));
            sb.append(String.format(
                    Locale.ROOT,
                    "Capacity held after the load: %d on live proxies, %d on churned-out proxies; "
                            + "gateway in flight %d%n",
                    held,
                    heldChurned,
                    gatewayInFlight));
            sb.append(String.format(
                    Locale.ROOT,
                    "Extraction: %d calls, %d failed, %d proxies handed out, %d duplicates, "
                            + "%d foreign; seeded %d (%d replenished) = handed out %d + remaining %d + expired unextracted %d%n",
                    extractor.calls.get(),
                    extractor.failures.get(),
                    extractor.seeds.handedOutCount(),
                    extractor.duplicates.get(),
                    extractor.foreign.get(),
                    seeded,
                    extractor.replenished.get(),
                    extractor.seeds.handedOutCount(),
                    remaining,
                    expiredUnextracted));
            return sb.toString();
        }
    }
}
