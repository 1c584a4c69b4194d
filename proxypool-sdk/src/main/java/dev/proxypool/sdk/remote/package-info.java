/**
 * A remote client of a running server's Distribution API (docs/design.md#extraction, docs/api.md {@code POST /v1/extractions}):
 * {@link dev.proxypool.sdk.remote.DistributionClient} sends an {@link dev.proxypool.sdk.Extraction}
 * and returns an {@link dev.proxypool.sdk.ExtractionResponse} (the same request and result types as
 * the in-process {@link dev.proxypool.sdk.ProxyPool#extract}), or throws one case of the sealed
 * {@link dev.proxypool.sdk.remote.DistributionException} for every error body the server defines and
 * for a server that cannot be reached.
 */
package dev.proxypool.sdk.remote;
