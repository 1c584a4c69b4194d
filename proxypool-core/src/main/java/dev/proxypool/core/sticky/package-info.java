/**
 * Sticky sessions: {@link dev.proxypool.core.sticky.StickyTable} pins a
 * {@link dev.proxypool.core.sticky.SessionKey} (client, routing, session id) to a proxy until its
 * lifetime, idle time or the proxy's expiry ends it, and {@link dev.proxypool.core.sticky.StickyDispatch}
 * runs a routing's sticky flow on top of the dispatcher, under its
 * {@link dev.proxypool.core.sticky.StickyPolicy}. The table is per worker and in memory only: it must
 * not be shared between clients or persisted, and it never reads the system clock (times are ticker
 * nanoseconds).
 */
package dev.proxypool.core.sticky;
