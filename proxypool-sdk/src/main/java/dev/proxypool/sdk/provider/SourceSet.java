package dev.proxypool.sdk.provider;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.core.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Fetches all enabled upstreams in parallel, one virtual thread each, and merges the results.
 * One failing source never stops the others: an adapter that throws becomes an error report, one
 * that overruns its timeout is cancelled (interrupted) and reported as
 * {@link FetchOutcome.ErrorKind#TIMEOUT}. Reports come back in the configured order whatever order the
 * fetches finish in, so a round is deterministic for the same answers.
 *
 * <p>A round waits at most the longest source timeout plus a small grace. Thread-safe: rounds may
 * run concurrently (each has its own executor).
 */
public final class SourceSet {

    private static final System.Logger LOG = System.getLogger(SourceSet.class.getName());
    private static final Duration GRACE = Duration.ofMillis(250);

    private final List<UpstreamSource> sources;
    private final Ticker ticker;

    /**
     * The upstreams fetched together in one round.
     *
     * @param sources the sources, in configured order
     * @param ticker  the monotonic clock for durations
     * @throws IllegalArgumentException when an upstream is listed twice
     */
    public SourceSet(List<UpstreamSource> sources, Ticker ticker) {
        this.sources = List.copyOf(sources);
        this.ticker = ticker;
        Set<String> names = new HashSet<>();
        for (UpstreamSource s : this.sources) {
            if (!names.add(s.upstream())) {
                throw new IllegalArgumentException("upstreams[" + s.upstream() + "]: listed twice");
            }
        }
    }

    /**
     * The sources, in configured order.
     *
     * @return the sources
     */
    public List<UpstreamSource> sources() {
        return sources;
    }

    /**
     * Fetches every source once and merges the candidates.
     *
     * @return the round: a report per source and the merged candidates
     */
    public FetchRound fetchAll() {
        long start = ticker.read();
        List<Future<FetchReport>> futures = new ArrayList<>(sources.size());
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            for (UpstreamSource s : sources) {
                futures.add(executor.submit(() -> s.adapter().fetch(s.context())));
            }
            List<FetchReport> reports = new ArrayList<>(sources.size());
            for (int i = 0; i < sources.size(); i++) {
                reports.add(await(sources.get(i), futures.get(i), start));
            }
            return merge(reports);
        } finally {
            executor.shutdownNow(); // never wait for a stuck source; its read timeout ends it
        }
    }

    private FetchReport await(UpstreamSource s, Future<FetchReport> future, long start) {
        long deadline = start + s.timeout().toNanos() + GRACE.toNanos();
        FetchReport report;
        try {
            report = future.get(Math.max(0, deadline - ticker.read()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            report = FetchReport.failed(
                    s.provider(),
                    s.upstream(),
                    FetchOutcome.ErrorKind.TIMEOUT,
                    "no answer within " + s.timeout().toMillis() + "ms",
                    elapsed(start));
        } catch (ExecutionException e) {
            report = FetchReport.failed(
                    s.provider(),
                    s.upstream(),
                    FetchOutcome.ErrorKind.NETWORK,
                    "adapter failed (" + e.getCause().getClass().getSimpleName() + ")",
                    elapsed(start));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            report = FetchReport.failed(
                    s.provider(), s.upstream(), FetchOutcome.ErrorKind.TIMEOUT, "round interrupted", elapsed(start));
        }
        if (report.outcome() instanceof FetchOutcome.Error(FetchOutcome.ErrorKind kind, String detail)) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "upstream {0} (provider {1}) fetch failed: {2} {3}",
                    s.upstream(),
                    s.provider(),
                    kind.label(),
                    detail);
        }
        return report;
    }

    private static FetchRound merge(List<FetchReport> reports) {
        LinkedHashMap<ProxyKey, Proxy> merged = new LinkedHashMap<>();
        int duplicates = 0;
        for (FetchReport r : reports) {
            for (Proxy p : r.candidates()) {
                if (merged.putIfAbsent(p.key(), p) != null) {
                    duplicates++;
                }
            }
        }
        return new FetchRound(reports, new ArrayList<>(merged.values()), duplicates);
    }

    private Duration elapsed(long start) {
        return Duration.ofNanos(Math.max(0, ticker.read() - start));
    }
}
