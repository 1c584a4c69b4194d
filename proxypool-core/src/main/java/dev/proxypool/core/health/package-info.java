/**
 * The live health of each proxy on this worker: {@link dev.proxypool.core.health.ProxyHealth} keeps
 * one immutable {@link dev.proxypool.core.health.HealthStatus} behind compare-and-set and moves it
 * through the {@link dev.proxypool.core.health.HealthState} lifecycle from classified
 * {@link dev.proxypool.core.health.FailureKind}s, passive windows, probes and per-domain bans, under
 * a validated {@link dev.proxypool.core.health.HealthPolicy}. It is read on the hot path, so it takes
 * no locks, does not allocate per request and never blocks. It must not do I/O, read the system
 * clock (time is a ticker reading passed in) or decide capacity.
 */
package dev.proxypool.core.health;
