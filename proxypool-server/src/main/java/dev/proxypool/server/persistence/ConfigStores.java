package dev.proxypool.server.persistence;

import dev.proxypool.sdk.config.ConfigException;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import java.time.InstantSource;
import java.util.List;

/** Opens the {@link ConfigStore} a configuration asks for ({@code database.type}). */
public final class ConfigStores {

    /** The audit actor of rows written from the config file. */
    public static final String CONFIG_ACTOR = "config";

    private static final System.Logger LOG = System.getLogger(ConfigStores.class.getName());

    private ConfigStores() {}

    /**
     * {@code database.type: none}: a {@link MemoryConfigStore} holding the file's entities.
     * {@code postgres}: a {@link PostgresConfigStore}, migrated, and seeded with the file's entities
     * when the database configuration was never written (afterwards the database wins over the file).
     *
     * @throws MigrationException          when the schema cannot be brought up to date
     * @throws DatabaseUnavailableException when PostgreSQL cannot be reached at start
     */
    public static ConfigStore open(ProxyPoolConfig config, InstantSource clock) {
        return open(config, clock, false);
    }

    /**
     * As {@link #open(ProxyPoolConfig, InstantSource)}; the configuration source rule with
     * PostgreSQL: the file seeds an empty database, afterwards the database is the truth for
     * providers, upstreams, routings and clients (the admin API, the gateway and the pipeline all
     * run from it). On start, every entity whose file version differs from the database's is named
     * in one warning. {@code importFile} ({@code proxypool serve --import-config}) overwrites the
     * database's configuration with the file's instead (audited {@code config.import}).
     *
     * @throws ConfigException naming {@code database.type} when {@code importFile} is asked without PostgreSQL
     */
    public static ConfigStore open(ProxyPoolConfig config, InstantSource clock, boolean importFile) {
        if (importFile && config.database().type() != ProxyPoolConfig.DatabaseType.POSTGRES) {
            throw new ConfigException(
                    "database.type",
                    "--import-config imports the file into the configuration database,"
                            + " but none is configured (set database.type: postgres); without one the file is the configuration");
        }
        return switch (config.database().type()) {
            case NONE -> new MemoryConfigStore(ConfigState.from(config), clock);
            case POSTGRES -> {
                PostgresConfigStore store = PostgresConfigStore.open(DatabaseSettings.from(config.database()), clock);
                try {
                    ConfigState file = ConfigState.from(config);
                    if (importFile) {
                        long version = store.importState(file, CONFIG_ACTOR);
                        LOG.log(
                                System.Logger.Level.INFO,
                                "configuration imported from the file into the database"
                                        + " (version {0}): it is the configuration in force",
                                version);
                    } else if (!store.seedIfEmpty(file, CONFIG_ACTOR)) {
                        List<String> differ = ConfigDiff.between(config, file, store.state());
                        if (!differ.isEmpty()) {
                            LOG.log(
                                    System.Logger.Level.WARNING,
                                    "the config file and the configuration database differ;"
                                            + " the database is in force (the file only seeds an empty database; proxypool serve"
                                            + " --import-config overwrites the database with the file): "
                                            + String.join(", ", differ));
                        }
                    }
                    yield store;
                } catch (RuntimeException e) {
                    store.close();
                    throw e;
                }
            }
        };
    }
}
