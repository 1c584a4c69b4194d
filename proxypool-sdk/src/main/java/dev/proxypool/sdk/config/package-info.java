/**
 * Reading {@code proxypool.yaml} into the immutable, validated
 * {@link dev.proxypool.sdk.config.ProxyPoolConfig}: {@link dev.proxypool.sdk.config.ConfigLoader}
 * over Helidon config, path-aware {@link dev.proxypool.sdk.config.Node} reads and human
 * {@link dev.proxypool.sdk.config.Durations}. Every error is a
 * {@link dev.proxypool.sdk.config.ConfigException} naming the full key; unknown keys are refused and
 * each default is defined once. It must not start anything or touch the network: it only reads and
 * validates.
 */
package dev.proxypool.sdk.config;
