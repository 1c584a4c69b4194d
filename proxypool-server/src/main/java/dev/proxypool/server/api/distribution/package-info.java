/**
 * The Distribution API ({@code POST /v1/extractions}, docs/design.md#extraction and docs/api.md): exclusive extraction over
 * HTTP. {@link dev.proxypool.server.api.distribution.DistributionService} is the Helidon
 * {@code HttpService}; {@link dev.proxypool.server.api.distribution.BearerAuth} is how the
 * composition plugs in client authentication; {@link dev.proxypool.core.limits.QuotaLedger}
 * enforces per-client hourly quotas. JSON stays in {@code ExtractionJson}.
 */
package dev.proxypool.server.api.distribution;
