package dev.proxypool.sdk.engine;

import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.credentials.CredentialStore;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import dev.proxypool.sdk.pipeline.ValidationStage;
import dev.proxypool.sdk.provider.ProviderRegistry;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;

/**
 * What a {@link dev.proxypool.sdk.ProxyPool.Builder} was given, for {@link EmbeddedProxyPool}.
 *
 * @param config        the configuration
 * @param store         a store the caller owns, or null for the one the configuration names
 * @param ticker        the monotonic clock
 * @param wall          the wall clock
 * @param proxies       proxies to start with
 * @param validation    how {@code validate: true} upstreams are validated, or null for the default validator
 * @param background    whether collection and purging run in the background
 * @param activeProbing whether proxies are probed actively
 * @param deferStart    whether collection waits for an explicit start
 * @param credentials   the credential store, or null for {@code credentials.file} (or none)
 * @param inCode        credentials given in code, in front of the store
 * @param registry      the provider adapters, or null for the standard ones the configuration names
 * @param environment   where providers read their secrets, or null for the process environment
 */
public record PoolOptions(
        ProxyPoolConfig config,
        PoolStore store,
        Ticker ticker,
        InstantSource wall,
        List<Proxy> proxies,
        ValidationStage validation,
        boolean background,
        boolean activeProbing,
        boolean deferStart,
        CredentialStore credentials,
        StaticCredentialStore inCode,
        ProviderRegistry registry,
        Map<String, String> environment) {}
