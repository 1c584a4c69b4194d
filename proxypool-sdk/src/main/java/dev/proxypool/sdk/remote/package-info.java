/**
 * A remote client of a running server's Distribution API (docs/design.md#extraction, docs/api.md {@code POST /v1/extractions}):
 * {@link dev.proxypool.sdk.remote.DistributionClient} sends an
 * {@link dev.proxypool.sdk.remote.ExtractionCall} and returns an
 * {@link dev.proxypool.sdk.remote.ExtractionResponse}, or throws one case of the sealed
 * {@link dev.proxypool.sdk.remote.DistributionException} for every error body the server defines and
 * for a server that cannot be reached. The in-process counterpart is
 * {@link dev.proxypool.sdk.ProxyPool#extract}.
 */
package dev.proxypool.sdk.remote;
