package dev.proxypool.core.dispatch;

import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.PoolSnapshot;

/**
 * Picks a proxy for one request from a {@link PoolSnapshot} and reserves one unit of its capacity
 * (docs/design.md#routing-and-strategies R3–R4, #capacity C1): the gateway's and the SDK's hot path.
 *
 * <p>Algorithm: {@link PoolSnapshot#candidates} gives the memoized candidate set of the request's
 * filter (upstreams, protocols, labels: no pool scan); the request's {@link Strategy} chooses a
 * first candidate in O(1) (see each selector); every candidate tried passes the
 * checks of {@link CandidateGate}: remaining TTL ≥ the filter's minimum, health age within the
 * maximum, not excluded, not banned for the destination domain, capacity reserved, then health
 * admission (a denial cancels the reservation). An unusable first choice leads to a bounded
 * deterministic scan of the candidate set, so a pick fails only when no candidate is usable, and
 * then says why ({@link NoCandidate.Reason}).
 *
 * <p>Complexity: O(1) expected per pick for every strategy (consistent hashing also hashes its key);
 * O(candidates) worst case, when nearly all are unusable. The first pick of a new snapshot and
 * filter also computes the candidate set and, for the weighted and hashing strategies, their
 * schedule or ring (the control plane can warm them by calling
 * {@code snapshot.candidates(filter)} and one pick after a build).
 *
 * <p>Thread-safety: stateless and lock-free; strategy state lives in the candidate sets
 * (atomic cursors, immutable rings). Allocation per successful pick: the {@link Picked} result and
 * its {@link dev.proxypool.core.capacity.Reservation}; a failed pick allocates nothing.
 */
public final class Dispatcher {

    public Dispatcher() {
    }

    /**
     * Chooses and reserves a proxy.
     *
     * @param snapshot the worker's current snapshot (read once by the caller, used for the whole request)
     * @param request  filter, strategy and per-request details
     * @param nowNanos the {@link dev.proxypool.core.time.Ticker} reading for this request
     */
    public PickResult pick(PoolSnapshot snapshot, PickRequest request, long nowNanos) {
        CandidateSet set = snapshot.candidates(request.filter());
        if (set.isEmpty()) {
            return NoCandidate.of(NoCandidate.Reason.NO_MATCH);
        }
        Selector selector = selector(request.strategy());
        Picked picked = selector.select(snapshot, set, request, nowNanos);
        if (picked != null) {
            return picked;
        }
        return CandidateGate.diagnose(snapshot, set, selector.rangeFrom(set, request),
                selector.rangeTo(set, request), request, nowNanos);
    }

    /**
     * Reserves the proxy in {@code slot} if it is a usable candidate of the request's filter now (a
     * sticky session's bound proxy): the same checks as {@link #pick}, ignoring the strategy.
     * {@link NoCandidate.Reason#NO_MATCH} when the slot does not pass the filter.
     */
    public PickResult pickSlot(PoolSnapshot snapshot, PickRequest request, int slot, long nowNanos) {
        CandidateSet set = snapshot.candidates(request.filter());
        if (slot < 0 || slot >= snapshot.size() || !set.contains(slot)) {
            return NoCandidate.of(NoCandidate.Reason.NO_MATCH);
        }
        Picked picked = CandidateGate.tryTake(snapshot, set, slot, request, nowNanos);
        return picked != null ? picked
                : NoCandidate.of(CandidateGate.reasonOf(snapshot, set, slot, request, nowNanos));
    }

    private static Selector selector(Strategy strategy) {
        return switch (strategy) {
            case ROUND_ROBIN, WEIGHTED -> SmoothWeightedSelector.INSTANCE;
            case RANDOM -> RandomSelector.INSTANCE;
            case LEAST_IN_FLIGHT -> LeastInFlightSelector.INSTANCE;
            case LATENCY -> LatencySelector.INSTANCE;
            case CONSISTENT_HASH -> ConsistentHashSelector.INSTANCE;
            case SEQUENTIAL -> SequentialSelector.INSTANCE;
        };
    }
}
