/**
 * Active health checks (docs/design.md#probes, H9): {@link dev.proxypool.sdk.probe.ActiveProber} sends a real request
 * through every proxy of the snapshot on a schedule, with bounded concurrency and random target
 * rotation, and reports each outcome to the core's {@link dev.proxypool.core.health.ProxyHealth}
 * under the probe admission it granted. A failure that may be the target's is confirmed on another
 * target before it counts, so a dead target cannot mark the pool unhealthy.
 */
package dev.proxypool.sdk.probe;
