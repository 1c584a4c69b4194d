/**
 * Choosing and reaching the upstream of a gateway request: the gateway's engine over the pool ({@link dev.proxypool.server.upstream.PoolGatewayEngine}): the
 * access checks before routing, first-match routing, sticky sessions, pick and reserve, then one
 * {@link dev.proxypool.server.upstream.PoolAttempt} per try through a leased proxy (or a
 * {@link dev.proxypool.server.upstream.DirectAttempt} for {@code onNoCandidate: direct}), with retries
 * bounded by a {@link dev.proxypool.server.upstream.RetryBudget}. It implements the wire layer's
 * {@link dev.proxypool.server.gateway.GatewayEngine}; it must not parse or write HTTP itself.
 */
package dev.proxypool.server.upstream;
