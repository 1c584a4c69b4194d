/**
 * The embedded SDK: {@link dev.proxypool.sdk.ProxyPool} runs the same core engine as the gateway
 * inside a Java application (store, pipeline, prober, leases), with
 * {@link dev.proxypool.sdk.Selection} for leasing a proxy ({@link dev.proxypool.sdk.Lease}) and
 * {@link dev.proxypool.sdk.Extraction} for taking proxies out of the pool, and the typed
 * {@link dev.proxypool.sdk.ProxyPoolException}s. {@link dev.proxypool.sdk.Extraction},
 * {@link dev.proxypool.sdk.ExtractionResponse} and {@link dev.proxypool.sdk.ExtractedProxyView} are
 * shared with the remote client ({@code dev.proxypool.sdk.remote}): one request and one result type
 * for both extraction paths.
 *
 * <p>This is the public surface applications compile against, with {@code dev.proxypool.sdk.remote},
 * the provider SPI {@code dev.proxypool.sdk.provider} and the core's value types
 * ({@code dev.proxypool.core.model}); see docs/architecture.md#public-sdk-surface. Its exceptions and log
 * lines never carry a proxy address or a secret.
 */
package dev.proxypool.sdk;
