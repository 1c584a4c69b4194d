package dev.proxypool.sdk.provider;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.sequential.FetchOutcome;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The result of fetching one upstream: its valid candidates (normalized and deduplicated within
 * the source), the dropped records counted by reason, how much was read and how long it took,
 * and the {@link FetchOutcome}. An adapter always returns a report, never throws: a failure is an
 * {@link FetchOutcome.Error} with zero candidates.
 *
 * @param provider    provider name
 * @param upstream    upstream name
 * @param outcome     {@code Success(candidates.size())}, {@code Empty} or {@code Error}
 * @param candidates  valid candidates in source order
 * @param drops       dropped records by {@link DropReason#code()}
 * @param dropSamples where the first drops happened (at most {@link #MAX_SAMPLES})
 * @param bytesRead   bytes read from the source (at most {@code maxBytes + 1})
 * @param duration    wall time of the fetch, from the injected ticker
 */
public record FetchReport(
        String provider,
        String upstream,
        FetchOutcome outcome,
        List<Proxy> candidates,
        Map<String, Integer> drops,
        List<DropSample> dropSamples,
        long bytesRead,
        Duration duration) {

    /** Drop samples kept per report. */
    public static final int MAX_SAMPLES = 50;

    /**
     * Copies the collections and validates.
     *
     * @throws IllegalArgumentException when a required field is missing or an error carries candidates
     */
    public FetchReport {
        if (provider == null || upstream == null || outcome == null || duration == null) {
            throw new IllegalArgumentException("fetch report: provider, upstream, outcome and duration are required");
        }
        candidates = List.copyOf(candidates);
        drops = Collections.unmodifiableMap(new TreeMap<>(drops));
        dropSamples = List.copyOf(dropSamples);
        if (outcome instanceof FetchOutcome.Error && !candidates.isEmpty()) {
            throw new IllegalArgumentException("fetch report: an error carries no candidates");
        }
    }

    /**
     * A successful fetch of an adapter that reads no records of its own format (an in-house
     * registry, an SDK call): {@code Success(candidates.size())}, or {@code Empty} for no
     * candidates, nothing dropped, nothing counted as read.
     *
     * @param provider   provider name
     * @param upstream   upstream name
     * @param candidates the normalized candidates
     * @param duration   how long the fetch took
     * @return the report
     */
    public static FetchReport of(String provider, String upstream, List<Proxy> candidates, Duration duration) {
        FetchOutcome outcome = candidates.isEmpty() ? FetchOutcome.EMPTY : new FetchOutcome.Success(candidates.size());
        return new FetchReport(provider, upstream, outcome, candidates, Map.of(), List.of(), 0, duration);
    }

    /**
     * A failed fetch with nothing read.
     *
     * @param provider provider name
     * @param upstream upstream name
     * @param kind     what failed
     * @param detail   a short reason, no address and no secret
     * @param duration how long the attempt took
     * @return the report
     */
    public static FetchReport failed(
            String provider, String upstream, FetchOutcome.ErrorKind kind, String detail, Duration duration) {
        return new FetchReport(
                provider, upstream, new FetchOutcome.Error(kind, detail), List.of(), Map.of(), List.of(), 0, duration);
    }

    /**
     * Whether the fetch failed.
     *
     * @return true for an {@link FetchOutcome.Error}
     */
    public boolean isError() {
        return outcome instanceof FetchOutcome.Error;
    }

    /**
     * Total dropped records.
     *
     * @return the sum over all reasons
     */
    public int dropped() {
        int n = 0;
        for (int v : drops.values()) {
            n += v;
        }
        return n;
    }

    /**
     * How many records were dropped for {@code reason}.
     *
     * @param reason the reason
     * @return the count, 0 when none
     */
    public int dropped(DropReason reason) {
        return drops.getOrDefault(reason.code(), 0);
    }

    /** A summary: no addresses, no record contents. */
    @Override
    public String toString() {
        return "FetchReport[" + provider + "/" + upstream + " " + outcome + " candidates=" + candidates.size()
                + " drops=" + drops + " bytes=" + bytesRead + " in " + duration.toMillis() + "ms]";
    }
}
