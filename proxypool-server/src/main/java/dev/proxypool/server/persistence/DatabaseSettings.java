package dev.proxypool.server.persistence;

import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.credentials.Secret;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How to reach PostgreSQL.
 *
 * @param url               {@code jdbc:postgresql://host:port/db} (may carry {@code currentSchema=})
 * @param user              login role; empty = the driver's default
 * @param password          empty = none (trust or peer authentication)
 * @param schema            schema for every connection (search path); empty = the URL's or the server's default
 * @param connectionTimeout how long a caller waits for a connection before {@link DatabaseUnavailableException}
 *                          (default 2 s: an admin write to a dead database fails fast)
 * @param maxPoolSize       connections at most (default 4: admin traffic is light)
 */
public record DatabaseSettings(
        String url,
        String user,
        Optional<Secret> password,
        Optional<String> schema,
        Duration connectionTimeout,
        int maxPoolSize) {

    public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(2);
    public static final int DEFAULT_MAX_POOL_SIZE = 4;

    public DatabaseSettings {
        Objects.requireNonNull(url, "url");
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("database.url: must be a jdbc:postgresql: URL, got '" + url + "'");
        }
        user = user == null ? "" : user;
        password = password == null ? Optional.empty() : password;
        schema = schema == null ? Optional.empty() : schema;
        Objects.requireNonNull(connectionTimeout, "connectionTimeout");
        if (connectionTimeout.toMillis() < 250) {
            throw new IllegalArgumentException(
                    "database connection timeout must be at least 250ms, got " + connectionTimeout);
        }
        if (maxPoolSize < 1) {
            throw new IllegalArgumentException("database pool size must be at least 1, got " + maxPoolSize);
        }
    }

    public static DatabaseSettings of(String url, String user) {
        return new DatabaseSettings(
                url, user, Optional.empty(), Optional.empty(), DEFAULT_CONNECTION_TIMEOUT, DEFAULT_MAX_POOL_SIZE);
    }

    /** The {@code database:} section of the config ({@code type: postgres}). */
    public static DatabaseSettings from(ProxyPoolConfig.Database d) {
        if (d.type() != ProxyPoolConfig.DatabaseType.POSTGRES) {
            throw new IllegalArgumentException("database.type: is " + d.type() + ", not postgres");
        }
        return new DatabaseSettings(
                d.url(), d.user(), d.password(), Optional.empty(), DEFAULT_CONNECTION_TIMEOUT, DEFAULT_MAX_POOL_SIZE);
    }

    public DatabaseSettings withSchema(String s) {
        return new DatabaseSettings(url, user, password, Optional.of(s), connectionTimeout, maxPoolSize);
    }

    @Override
    public String toString() {
        return "DatabaseSettings[url=" + url + ", user=" + user + ", schema=" + schema.orElse("") + "]";
    }
}
