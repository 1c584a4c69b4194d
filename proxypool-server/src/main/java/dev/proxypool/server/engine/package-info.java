/**
 * The gateway's engine over the pool ({@link dev.proxypool.server.engine.PoolGatewayEngine}): the
 * access checks before routing, first-match routing, sticky sessions, pick and reserve, then one
 * {@link dev.proxypool.server.engine.PoolAttempt} per try through a leased proxy (or a
 * {@link dev.proxypool.server.engine.DirectAttempt} for {@code onNoCandidate: direct}), with retries
 * bounded by a {@link dev.proxypool.server.engine.RetryBudget}. It implements the wire layer's
 * {@link dev.proxypool.server.gateway.GatewayEngine}; it must not parse or write HTTP itself.
 */
package dev.proxypool.server.engine;
