package dev.proxypool.core.sticky;

import dev.proxypool.core.dispatch.Dispatcher;
import dev.proxypool.core.dispatch.NoCandidate;
import dev.proxypool.core.dispatch.PickRequest;
import dev.proxypool.core.dispatch.PickResult;
import dev.proxypool.core.dispatch.Picked;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.util.Objects;
import java.util.Optional;

/**
 * The sticky-session flow of one routing (docs/design.md#sticky-sessions), on top of a {@link StickyTable} and
 * a {@link Dispatcher}:
 *
 * <pre>
 *   pick(key):  lookup(key)
 *                 Bound    -> dispatcher.pickSlot(bound proxy)    -> Reused(Picked)
 *                                busy                             -> Reused(NoCandidate BUSY), binding kept
 *                                unhealthy/banned/... (raced)     -> binding cleared, treated as Lost
 *                 Unbound  -> dispatcher.pick                     -> Fresh(result)
 *                 Excluded -> strict: SessionLost(EXCLUDED), binding kept
 *                             repin:  dispatcher.pick             -> Detour(result), binding kept
 *                 Lost     -> strict: SessionLost(reason)
 *                             repin:  dispatcher.pick             -> Fresh(result, lost = reason)
 *                                     (SESSION_FAILURES: the abandoned proxy excluded while another qualifies)
 *   connect ok:     connected(key, ...)    binds Fresh picks (lifetime capped by the proxy's expiry)
 *   outcome:        succeeded / failed     counted on the binding; switchFailures in a row or
 *                                          switchErrorRate of the recent requests abandon it (S8)
 * </pre>
 *
 * Thread-safe (both parts are). Not on the no-allocation path: a sticky request allocates its
 * session key and lookup result.
 */
public final class StickyDispatch {

    private final StickyTable table;
    private final Dispatcher dispatcher;

    /**
     * The flow of one routing.
     *
     * @param table      the routing's bindings; not null
     * @param dispatcher the routing's dispatcher; not null
     */
    public StickyDispatch(StickyTable table, Dispatcher dispatcher) {
        this.table = Objects.requireNonNull(table, "table");
        this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher");
    }

    /**
     * The bindings this flow reads and writes.
     *
     * @return the table
     */
    public StickyTable table() {
        return table;
    }

    /**
     * Chooses the proxy for a request of session {@code key}; see the class comment.
     *
     * @param key      the session
     * @param snapshot the snapshot to pick from
     * @param request  the pick request of the routing
     * @param now      the current {@link dev.proxypool.core.time.Ticker} reading
     * @return Reused, Fresh or SessionLost
     */
    public StickyPick pick(SessionKey key, PoolSnapshot snapshot, PickRequest request, long now) {
        StickyLookup found = table.lookup(key, snapshot, request, now);
        return switch (found) {
            case StickyLookup.Unbound u ->
                new StickyPick.Fresh(dispatcher.pick(snapshot, request, now), Optional.empty());
            case StickyLookup.Lost lost -> onLost(lost.proxyId(), lost.reason(), snapshot, request, now);
            case StickyLookup.Bound bound -> reserveBound(key, bound, snapshot, request, now);
            case StickyLookup.Excluded excluded ->
                switch (table.policy().onLost()) {
                    case STRICT -> new StickyPick.SessionLost(excluded.proxyId(), LossReason.EXCLUDED);
                    case REPIN -> new StickyPick.Detour(dispatcher.pick(snapshot, request, now), excluded.proxyId());
                };
        };
    }

    private StickyPick reserveBound(
            SessionKey key, StickyLookup.Bound bound, PoolSnapshot snapshot, PickRequest request, long now) {
        PickResult result = dispatcher.pickSlot(snapshot, request, bound.slot(), now);
        return switch (result) {
            case Picked p -> new StickyPick.Reused(p);
            case NoCandidate nc when nc.reason() == NoCandidate.Reason.BUSY -> new StickyPick.Reused(nc);
            case NoCandidate nc -> {
                table.clear(key, bound.proxyId());
                yield onLost(bound.proxyId(), LossReason.of(nc.reason()), snapshot, request, now);
            }
        };
    }

    private StickyPick onLost(String proxyId, LossReason reason, PoolSnapshot snapshot, PickRequest request, long now) {
        return switch (table.policy().onLost()) {
            case STRICT -> new StickyPick.SessionLost(proxyId, reason);
            case REPIN -> new StickyPick.Fresh(repin(proxyId, reason, snapshot, request, now), Optional.of(reason));
        };
    }

    /**
     * The new proxy of a moving session. A session that moves because of its own failures avoids the
     * proxy it leaves (which may still be healthy for everyone else) while another one qualifies.
     */
    private PickResult repin(String proxyId, LossReason reason, PoolSnapshot snapshot, PickRequest request, long now) {
        if (reason == LossReason.SESSION_FAILURES && !request.excludedProxyIds().contains(proxyId)) {
            PickResult elsewhere = dispatcher.pick(snapshot, request.excluding(proxyId), now);
            if (elsewhere instanceof Picked) {
                return elsewhere;
            }
        }
        return dispatcher.pick(snapshot, request, now);
    }

    /**
     * The upstream connect of {@code pick} succeeded: a {@link StickyPick.Fresh} pick becomes the
     * session's binding. A reused binding only had its last-use time refreshed by the lookup.
     *
     * @param key      the session
     * @param pick     what {@link #pick} returned
     * @param snapshot the snapshot the pick came from
     * @param now      the current {@link dev.proxypool.core.time.Ticker} reading
     */
    public void connected(SessionKey key, StickyPick pick, PoolSnapshot snapshot, long now) {
        if (pick instanceof StickyPick.Fresh fresh && fresh.pick() instanceof Picked p) {
            table.bind(key, snapshot, p.slot(), now);
        }
    }

    /**
     * A request of the session on {@code proxyId} succeeded: its failure streak ends.
     *
     * @param key     the session
     * @param proxyId the proxy that served the request
     */
    public void succeeded(SessionKey key, String proxyId) {
        table.recordOutcome(key, proxyId, false);
    }

    /**
     * A request of the session on {@code proxyId} failed (connect or exchange). One failure never
     * moves the session (docs/design.md#sticky-sessions, S8): {@code sticky.switchFailures} in a row,
     * or {@code sticky.switchErrorRate} of its recent requests on the proxy, do; so does the proxy
     * leaving the pool (cooled, disabled, expired), which the next lookup sees at once.
     *
     * @param key     the session
     * @param proxyId the proxy that served the request
     * @return true if this failure made the session move off the proxy
     */
    public boolean failed(SessionKey key, String proxyId) {
        return table.recordOutcome(key, proxyId, true);
    }

    /**
     * Drops the session's binding at once, whatever its record (an operator or a caller that knows
     * the session must move).
     *
     * @param key the session
     */
    public void connectFailed(SessionKey key) {
        table.clear(key);
    }
}
