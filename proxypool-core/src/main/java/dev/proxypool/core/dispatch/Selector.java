package dev.proxypool.core.dispatch;

import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.PoolSnapshot;

/**
 * One selection algorithm. Implementations are stateless singletons: any state (cursors,
 * schedules, rings) lives in the candidate set as a derived value, so it is per filter and per
 * snapshot, built once, and shared by all threads.
 */
interface Selector {

    /**
     * Takes a unit of a usable candidate of the non-empty {@code set}, trying the strategy's choice
     * first and then a bounded deterministic scan: a {@link CandidateGate#taken} value, or
     * {@link CandidateGate#NONE} only when no candidate in [{@link #rangeFrom}, {@link #rangeTo}) is usable.
     */
    int select(PoolSnapshot snapshot, CandidateSet set, PickRequest request, long nowNanos);

    /** First candidate index this strategy may use for {@code request} (for the failure diagnosis). */
    default int rangeFrom(CandidateSet set, PickRequest request) {
        return 0;
    }

    /** One past the last candidate index this strategy may use for {@code request}. */
    default int rangeTo(CandidateSet set, PickRequest request) {
        return set.size();
    }
}
