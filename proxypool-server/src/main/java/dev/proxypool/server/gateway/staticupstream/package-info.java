/**
 * TEMPORARY: a gateway engine over a fixed list of upstream HTTP proxies, with its own minimal
 * HTTP-proxy connector (absolute-form forwarding with an idle-connection pool, CONNECT chaining).
 * It exists so the wire layer and the load harness run before the real dispatcher and the SDK
 * dialers ({@code dev.proxypool.sdk.dial}) are wired in; delete this package then. Nothing outside
 * it depends on it except the load-harness entry point and tests.
 */
package dev.proxypool.server.gateway.staticupstream;
