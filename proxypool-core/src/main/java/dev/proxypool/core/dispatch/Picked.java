package dev.proxypool.core.dispatch;

import dev.proxypool.core.capacity.Reservation;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.runtime.ProxyRuntime;

/**
 * A proxy chosen and one unit of its capacity reserved. The caller owns {@code reservation}:
 * {@link Reservation#activate()} once connected, {@link Reservation#release()} when the request or
 * tunnel ends, {@link Reservation#cancel()} on failure; and reports the outcome to
 * {@code runtime.health()} with {@code admission} (a {@link Admission#PROBE} decides recovery).
 * A new value and reservation per pick (56 bytes); a hot path that picks repeatedly from one thread
 * or connection can use a {@link ReusablePick} instead, which allocates nothing (the product's pick,
 * the SDK engine's {@code PoolEngine.acquire}, does).
 *
 * @param slot        the proxy's slot in the snapshot it was picked from (valid in that snapshot only)
 * @param proxy       the proxy
 * @param runtime     its long-lived capacity and health
 * @param reservation the unit held for this request
 * @param admission   {@link Admission#ADMITTED} or {@link Admission#PROBE}, never DENIED
 */
public record Picked(int slot, Proxy proxy, ProxyRuntime runtime, Reservation reservation, Admission admission)
        implements PickResult {}
