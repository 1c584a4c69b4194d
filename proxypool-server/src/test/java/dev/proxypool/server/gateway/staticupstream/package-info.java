/**
 * A bare gateway engine over a fixed list of upstream HTTP proxies, with its own minimal
 * HTTP-proxy connector (absolute-form forwarding with an idle-connection pool, CONNECT chaining).
 * The product serves through {@code dev.proxypool.server.engine.PoolGatewayEngine}; this engine is
 * kept for the wire layer's own tests (retries, stale pooled links) and as the load harness's
 * "bare wire layer" row, which shows what the real engine costs on top of it. Nothing in the
 * product depends on it.
 */
package dev.proxypool.server.gateway.staticupstream;
