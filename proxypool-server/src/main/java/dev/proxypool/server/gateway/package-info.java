/**
 * The gateway wire layer: the forward-proxy protocol over HTTP/1.1 and {@code CONNECT}. Our own
 * {@link dev.proxypool.server.gateway.GatewayListener} accepts connections, each served by a
 * {@link dev.proxypool.server.gateway.GatewayConnection} that parses request heads with hard limits,
 * authenticates, asks the engine for a route, relays bodies and tunnels, and answers its own errors
 * with {@code X-ProxyPool-Error}. Its only dependency on the rest of the product is the
 * {@link dev.proxypool.server.gateway.GatewayEngine} interface (plus core health and time types): it
 * must not reach into the pool, the SDK or the REST API, and it must not log secrets or unmasked
 * proxy addresses.
 */
package dev.proxypool.server.gateway;
