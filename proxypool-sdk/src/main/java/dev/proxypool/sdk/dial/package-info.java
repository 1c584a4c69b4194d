/**
 * Dialing through upstream proxies: {@link dev.proxypool.sdk.dial.UpstreamDialer} opens a
 * tunnel (HTTP {@code CONNECT}, HTTPS proxy, SOCKS4/4a, SOCKS5) or a forwarding connection, with
 * credentials injected from the credential store at connect time, and classifies every failure
 * as a {@link dev.proxypool.core.health.FailureKind} ({@link dev.proxypool.sdk.dial.DialException}).
 * Used by the gateway (per request or tunnel) and by the validator and prober (docs/design.md#gateway-flow, #probes, #collection-pipeline).
 * JDK only; plain blocking I/O meant for virtual threads.
 */
package dev.proxypool.sdk.dial;
