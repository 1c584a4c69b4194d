package dev.proxypool.sdk.provider;

/**
 * Creates the adapter of one provider type from its config, validating the settings (a bad
 * setting is an {@link IllegalArgumentException} naming {@code providers[<name>].<key>}).
 */
@FunctionalInterface
public interface ProviderFactory {

    /**
     * The adapter for one configured provider.
     *
     * @param config the provider's name, type, settings and field mapping
     * @param env    the environment variables, base directory, clocks and inline credential store
     * @return the adapter
     * @throws IllegalArgumentException naming {@code providers[<name>].<key>} for a bad setting
     */
    ProviderAdapter create(ProviderConfig config, ProviderEnvironment env);
}
