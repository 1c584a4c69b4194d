/**
 * A bare gateway engine over a fixed list of upstream HTTP proxies (absolute-form forwarding, CONNECT
 * chaining through the SDK's handshake codec).
 * The product serves through {@code dev.proxypool.server.upstream.PoolGatewayEngine}; this engine is
 * kept for the wire layer's own tests (retries, pooled keep-alive connections) and as the load harness's
 * "bare wire layer" row, which shows what the real engine costs on top of it. Nothing in the
 * product depends on it.
 */
package dev.proxypool.server.gateway.staticupstream;
