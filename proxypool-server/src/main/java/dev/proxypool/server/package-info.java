/**
 * The {@code proxypool serve} process: {@link dev.proxypool.server.ProxyPoolServer} assembles the
 * SDK's pool with the gateway listener and the Helidon REST listener, and this package holds what
 * belongs to the process itself: readiness, the echo endpoint, the configuration poller, the REST
 * listener's head deadline and watchdog, and the Helidon-backed gateway metrics. It wires the
 * subpackages together; protocol, routing and storage logic live in them, not here.
 */
package dev.proxypool.server;
