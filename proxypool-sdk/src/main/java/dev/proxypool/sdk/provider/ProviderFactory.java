package dev.proxypool.sdk.provider;

/**
 * Creates the adapter of one provider type from its config, validating the settings (a bad
 * setting is an {@link IllegalArgumentException} naming {@code providers[<name>].<key>}).
 */
@FunctionalInterface
public interface ProviderFactory {

    ProviderAdapter create(ProviderConfig config, ProviderEnvironment env);
}
