package dev.proxypool.server.persistence;

import dev.proxypool.sdk.config.ProxyPoolConfig;
import java.time.InstantSource;

/** Opens the {@link ConfigStore} a configuration asks for ({@code database.type}). */
public final class ConfigStores {

    /** The audit actor of rows written from the config file. */
    public static final String CONFIG_ACTOR = "config";

    private ConfigStores() {
    }

    /**
     * {@code database.type: none}: a {@link MemoryConfigStore} holding the file's entities.
     * {@code postgres}: a {@link PostgresConfigStore}, migrated, and seeded with the file's entities
     * when the database configuration was never written (afterwards the database wins over the file).
     *
     * @throws MigrationException          when the schema cannot be brought up to date
     * @throws DatabaseUnavailableException when PostgreSQL cannot be reached at start
     */
    public static ConfigStore open(ProxyPoolConfig config, InstantSource clock) {
        return switch (config.database().type()) {
            case NONE -> new MemoryConfigStore(ConfigState.from(config), clock);
            case POSTGRES -> {
                PostgresConfigStore store = PostgresConfigStore.open(DatabaseSettings.from(config.database()), clock);
                try {
                    store.seedIfEmpty(ConfigState.from(config), CONFIG_ACTOR);
                    yield store;
                } catch (RuntimeException e) {
                    store.close();
                    throw e;
                }
            }
        };
    }
}
