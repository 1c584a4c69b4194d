/**
 * Per-proxy concurrency accounting on one worker: a {@link dev.proxypool.core.capacity.CapacityCell}
 * counts the requests and tunnels holding a proxy against its limit, and a
 * {@link dev.proxypool.core.capacity.Reservation} is one unit of it, reserved, activated and then
 * released or cancelled exactly once. Lock-free and allocation-light, it sits on every pick. It must
 * not decide which proxy to use or know about health, snapshots or I/O: callers own those.
 */
package dev.proxypool.core.capacity;
