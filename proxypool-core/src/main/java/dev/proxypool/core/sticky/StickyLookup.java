package dev.proxypool.core.sticky;

/** What {@link StickyTable#lookup} found for a session. */
public sealed interface StickyLookup {

    /** No binding: pick normally, then bind after a successful connect. */
    record Unbound() implements StickyLookup {
        static final Unbound INSTANCE = new Unbound();
    }

    /**
     * The session's proxy still qualifies in the current snapshot; reserve it in {@code slot}.
     *
     * @param slot    its slot in the snapshot passed to the lookup
     * @param proxyId its id
     */
    record Bound(int slot, String proxyId) implements StickyLookup {}

    /**
     * There was a binding but it no longer holds; it has been cleared. With {@code onLost: repin}
     * pick normally and bind the new proxy; with {@code strict} fail with {@code session_lost}.
     *
     * @param proxyId the proxy the session was bound to
     * @param reason  why the binding was dropped
     */
    record Lost(String proxyId, LossReason reason) implements StickyLookup {}

    /**
     * The binding holds, but this request excludes the bound proxy (a retry after it failed): serve
     * the request elsewhere <em>without</em> moving the session, which stays on its proxy until its
     * switching rules say otherwise (docs/design.md#sticky-sessions, S8). The binding is kept.
     *
     * @param proxyId the proxy the session stays bound to
     */
    record Excluded(String proxyId) implements StickyLookup {}
}
