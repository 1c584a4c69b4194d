package dev.proxypool.core.sticky;

import dev.proxypool.core.dispatch.PickResult;
import java.util.Optional;

/** The outcome of {@link StickyDispatch#pick}. Switch on it exhaustively. */
public sealed interface StickyPick {

    /**
     * The pick result to serve the request with, or empty for {@link SessionLost}.
     *
     * @return the result, or empty when the session is lost
     */
    Optional<PickResult> result();

    /**
     * The session's bound proxy. {@code result} is a {@code Picked} (its capacity reserved), or
     * {@code NoCandidate(BUSY)} when the proxy is at its concurrency limit right now: the binding is
     * kept (a momentarily full proxy does not change the session's exit IP) and the routing's
     * no-candidate policy applies to this request ({@code wait} retries the sticky pick).
     * Nothing to bind after connecting; report the outcome with {@link StickyDispatch#succeeded} or
     * {@link StickyDispatch#failed}.
     *
     * @param pick the bound proxy's pick: Picked or NoCandidate(BUSY)
     */
    record Reused(PickResult pick) implements StickyPick {
        @Override
        public Optional<PickResult> result() {
            return Optional.of(pick);
        }
    }

    /**
     * A normal pick: the session had no binding, or its binding was lost and the routing repins.
     * After a successful connect call {@link StickyDispatch#connected} to bind the new proxy.
     *
     * @param pick the normal pick's result
     * @param lost why the previous binding was dropped, if there was one (a repin)
     */
    record Fresh(PickResult pick, Optional<LossReason> lost) implements StickyPick {
        @Override
        public Optional<PickResult> result() {
            return Optional.of(pick);
        }

        /**
         * Whether the session moved to a new proxy.
         *
         * @return true if a previous binding was lost
         */
        public boolean repinned() {
            return lost.isPresent();
        }
    }

    /**
     * A retry of a request whose bound proxy failed: served by a normal pick that excludes the bound
     * proxy, for this request only. The session keeps its binding (one failure does not move it,
     * docs/design.md#sticky-sessions, S8); nothing binds after connecting.
     *
     * @param pick           the normal pick's result (the bound proxy excluded)
     * @param boundProxyId the proxy the session stays bound to
     */
    record Detour(PickResult pick, String boundProxyId) implements StickyPick {
        @Override
        public Optional<PickResult> result() {
            return Optional.of(pick);
        }
    }

    /**
     * {@code onLost: strict}: the session's proxy no longer qualifies and the session must not
     * change exit IP. Fail the request with {@code 502} and reason {@code session_lost}. The binding
     * has been cleared, so the session's next request starts a new binding, except for
     * {@link LossReason#EXCLUDED} (a retry after the bound proxy failed once): the retry is refused
     * and the session stays on its proxy.
     *
     * @param proxyId the proxy the session was bound to
     * @param reason  why it no longer qualifies
     */
    record SessionLost(String proxyId, LossReason reason) implements StickyPick {
        @Override
        public Optional<PickResult> result() {
            return Optional.empty();
        }
    }
}
