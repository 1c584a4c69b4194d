/**
 * The embedded SDK: {@link dev.proxypool.sdk.ProxyPool} runs the same core engine as the gateway
 * inside a Java application (store, pipeline, prober, leases), with
 * {@link dev.proxypool.sdk.Selection} for leasing a proxy and {@link dev.proxypool.sdk.Extraction}
 * for taking proxies out of the pool, and the typed {@link dev.proxypool.sdk.ProxyPoolException}s.
 * This is the public surface applications compile against; the subpackages hold its parts. Its
 * exceptions and log lines never carry a proxy address or a secret.
 */
package dev.proxypool.sdk;
