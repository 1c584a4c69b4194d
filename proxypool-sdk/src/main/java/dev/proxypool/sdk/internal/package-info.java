/**
 * The SDK's internal bridge for the server and the CLI: reaches the engine, the dialer and the
 * collection pipeline of a {@link dev.proxypool.sdk.ProxyPool}, and creates leases. Not exported by
 * the {@code dev.proxypool.sdk} module; embedding applications use {@code dev.proxypool.sdk} only.
 */
package dev.proxypool.sdk.internal;
