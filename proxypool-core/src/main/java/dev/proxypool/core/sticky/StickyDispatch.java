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
 *                 Bound   -> dispatcher.pickSlot(bound proxy)     -> Reused(Picked)
 *                                busy                             -> Reused(NoCandidate BUSY), binding kept
 *                                unhealthy/banned/... (raced)     -> binding cleared, treated as Lost
 *                 Unbound -> dispatcher.pick                      -> Fresh(result)
 *                 Lost    -> strict: SessionLost(reason)
 *                            repin:  dispatcher.pick              -> Fresh(result, lost = reason)
 *   connect ok:     connected(key, ...)   binds Fresh picks (lifetime capped by the proxy's expiry)
 *   connect failed: connectFailed(key)    clears the binding; a retry then picks normally
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
            case REPIN -> new StickyPick.Fresh(dispatcher.pick(snapshot, request, now), Optional.of(reason));
        };
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
     * The upstream connect failed: the session's binding is cleared (docs/design.md#sticky-sessions, S3).
     *
     * @param key the session
     */
    public void connectFailed(SessionKey key) {
        table.clear(key);
    }
}
