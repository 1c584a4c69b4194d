package dev.proxypool.core.dispatch;

import dev.proxypool.core.capacity.Reservation;
import dev.proxypool.core.health.Admission;
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
 * admission (a denial gives the unit back). An unusable first choice leads to a bounded
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
 * (atomic cursors, immutable rings).
 *
 * <p>Allocation: the selection itself allocates nothing. {@link #pick(PoolSnapshot, PickRequest, long)}
 * returns a new {@link Picked} and {@link Reservation} (56 bytes) on success;
 * {@link #pick(PoolSnapshot, PickRequest, long, ReusablePick)} fills a caller-owned
 * {@link ReusablePick} and allocates nothing at all. A failed pick returns a shared constant either way.
 * Both need the request's filter to be the same instance across calls (a routing's filter, or one
 * interned per distinct label set) to hit the snapshot's identity cache.
 */
public final class Dispatcher {

    /** A dispatcher; it has no state, so one instance can serve every thread. */
    public Dispatcher() {}

    /**
     * Chooses and reserves a proxy.
     *
     * @param snapshot the worker's current snapshot (read once by the caller, used for the whole request)
     * @param request  filter, strategy and per-request details
     * @param nowNanos the {@link dev.proxypool.core.time.Ticker} reading for this request
     * @return a new {@link Picked} holding a new reservation, or the shared {@link NoCandidate} of the reason
     */
    public PickResult pick(PoolSnapshot snapshot, PickRequest request, long nowNanos) {
        CandidateSet set = snapshot.candidates(request.filter());
        int taken = take(snapshot, set, request, nowNanos);
        return taken != CandidateGate.NONE ? picked(snapshot, taken) : failure(snapshot, set, request, nowNanos);
    }

    /**
     * Chooses and reserves a proxy into a caller-owned result, allocating nothing: the same choice,
     * checks and failure reasons as {@link #pick(PoolSnapshot, PickRequest, long)}.
     *
     * @param snapshot the worker's current snapshot
     * @param request  filter, strategy and per-request details
     * @param nowNanos the {@link dev.proxypool.core.time.Ticker} reading for this request
     * @param out      receives the proxy and holds its unit in {@link ReusablePick#reservation()},
     *                 or receives the failure
     * @return true when a proxy was reserved, false when {@link ReusablePick#failure()} says why not
     * @throws IllegalStateException when {@code out}'s reservation from an earlier pick is still held
     *                               (nothing is reserved then)
     */
    public boolean pick(PoolSnapshot snapshot, PickRequest request, long nowNanos, ReusablePick out) {
        requireEnded(out);
        CandidateSet set = snapshot.candidates(request.filter());
        int taken = take(snapshot, set, request, nowNanos);
        return taken != CandidateGate.NONE
                ? fill(out, snapshot, taken)
                : fail(out, failure(snapshot, set, request, nowNanos));
    }

    /**
     * Reserves the proxy in {@code slot} if it is a usable candidate of the request's filter now (a
     * sticky session's bound proxy): the same checks as {@link #pick}, ignoring the strategy.
     *
     * @param snapshot the worker's current snapshot
     * @param request  filter and per-request details (the strategy is not used)
     * @param slot     the proxy's slot in {@code snapshot}
     * @param nowNanos the {@link dev.proxypool.core.time.Ticker} reading for this request
     * @return a new {@link Picked}, or {@link NoCandidate.Reason#NO_MATCH} when the slot does not pass
     *         the filter, or the reason it is unusable now
     */
    public PickResult pickSlot(PoolSnapshot snapshot, PickRequest request, int slot, long nowNanos) {
        CandidateSet set = snapshot.candidates(request.filter());
        int taken = takeSlot(snapshot, set, slot, request, nowNanos);
        return taken != CandidateGate.NONE
                ? picked(snapshot, taken)
                : slotFailure(snapshot, set, slot, request, nowNanos);
    }

    /**
     * {@link #pickSlot(PoolSnapshot, PickRequest, int, long)} into a caller-owned result, allocating nothing.
     *
     * @param snapshot the worker's current snapshot
     * @param request  filter and per-request details (the strategy is not used)
     * @param slot     the proxy's slot in {@code snapshot}
     * @param nowNanos the {@link dev.proxypool.core.time.Ticker} reading for this request
     * @param out      receives the proxy and its unit, or the failure
     * @return true when the slot's proxy was reserved, false when {@link ReusablePick#failure()} says why not
     * @throws IllegalStateException when {@code out}'s reservation from an earlier pick is still held
     */
    public boolean pickSlot(PoolSnapshot snapshot, PickRequest request, int slot, long nowNanos, ReusablePick out) {
        requireEnded(out);
        CandidateSet set = snapshot.candidates(request.filter());
        int taken = takeSlot(snapshot, set, slot, request, nowNanos);
        return taken != CandidateGate.NONE
                ? fill(out, snapshot, taken)
                : fail(out, slotFailure(snapshot, set, slot, request, nowNanos));
    }

    /** The strategy's choice, its unit taken: a {@link CandidateGate#taken} value or {@link CandidateGate#NONE}. */
    private static int take(PoolSnapshot snapshot, CandidateSet set, PickRequest request, long nowNanos) {
        return set.isEmpty()
                ? CandidateGate.NONE
                : selector(request.strategy()).select(snapshot, set, request, nowNanos);
    }

    /** Why {@link #take} found nothing (the failure path: may scan the set). */
    private static NoCandidate failure(PoolSnapshot snapshot, CandidateSet set, PickRequest request, long nowNanos) {
        if (set.isEmpty()) {
            return NoCandidate.of(NoCandidate.Reason.NO_MATCH);
        }
        Selector selector = selector(request.strategy());
        return CandidateGate.diagnose(
                snapshot, set, selector.rangeFrom(set, request), selector.rangeTo(set, request), request, nowNanos);
    }

    private static boolean inFilter(PoolSnapshot snapshot, CandidateSet set, int slot) {
        return slot >= 0 && slot < snapshot.size() && set.contains(slot);
    }

    private static int takeSlot(PoolSnapshot snapshot, CandidateSet set, int slot, PickRequest request, long nowNanos) {
        return inFilter(snapshot, set, slot)
                ? CandidateGate.tryTake(snapshot, set, slot, request, nowNanos)
                : CandidateGate.NONE;
    }

    private static NoCandidate slotFailure(
            PoolSnapshot snapshot, CandidateSet set, int slot, PickRequest request, long nowNanos) {
        return NoCandidate.of(
                inFilter(snapshot, set, slot)
                        ? CandidateGate.reasonOf(snapshot, set, slot, request, nowNanos)
                        : NoCandidate.Reason.NO_MATCH);
    }

    private static Picked picked(PoolSnapshot snapshot, int taken) {
        int slot = CandidateGate.slotOf(taken);
        return new Picked(
                slot,
                snapshot.proxy(slot),
                snapshot.runtime(slot),
                Reservation.adopt(snapshot.capacity(slot)),
                CandidateGate.admissionOf(taken));
    }

    private static boolean fill(ReusablePick out, PoolSnapshot snapshot, int taken) {
        int slot = CandidateGate.slotOf(taken);
        out.reservation().rebind(snapshot.capacity(slot));
        out.succeed(snapshot, slot, CandidateGate.admissionOf(taken) == Admission.PROBE);
        return true;
    }

    private static boolean fail(ReusablePick out, NoCandidate reason) {
        out.fail(reason);
        return false;
    }

    private static void requireEnded(ReusablePick out) {
        if (out.reservation().isHeld()) {
            throw new IllegalStateException("the previous pick's reservation is still held: release or cancel it"
                    + " before picking into the same ReusablePick again");
        }
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
