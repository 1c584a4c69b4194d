package dev.proxypool.sdk.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Where and how {@link RedisPoolStore} talks to Redis (config {@code store: {type: redis, uri, keyPrefix}},
 * docs/configuration.md#store). Defaults in {@link #DEFAULTS}; validated on construction with messages naming the key.
 *
 * @param host           Redis host [{@code store.uri}, 127.0.0.1]
 * @param port           Redis port [{@code store.uri}, 6379]
 * @param user           ACL user, empty for the default user [{@code store.uri} userinfo]
 * @param password       password, empty for none [{@code store.uri} userinfo]; never printed
 * @param database       logical database [{@code store.uri} path, 0]
 * @param keyPrefix      every key of the store starts with it [{@code store.keyPrefix}, {@code pp:}];
 *                       no blanks and no braces (no Redis Cluster hash tags: see the scripts' header)
 * @param connectTimeout TCP connect bound [2 s; not a configuration key]
 * @param socketTimeout  bound on each reply [2 s; not a configuration key]: a slow or dead Redis
 *                       never holds a caller longer (plus the connect bound for a new connection)
 * @param maxConnections pooled connections [16; not a configuration key]; a caller waits at most
 *                       {@code connectTimeout} for a free one
 */
public record RedisStoreConfig(
        String host,
        int port,
        String user,
        String password,
        int database,
        String keyPrefix,
        Duration connectTimeout,
        Duration socketTimeout,
        int maxConnections) {

    public static final RedisStoreConfig DEFAULTS =
            new RedisStoreConfig("127.0.0.1", 6379, "", "", 0, "pp:", Duration.ofSeconds(2), Duration.ofSeconds(2), 16);

    public RedisStoreConfig {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("store.uri has no host");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("store.uri port " + port + " is out of range 1..65535");
        }
        user = user == null ? "" : user;
        password = password == null ? "" : password;
        if (database < 0) {
            throw new IllegalArgumentException("store.uri database must not be negative, got " + database);
        }
        checkKeyPrefix(keyPrefix);
        positive("RedisStoreConfig.connectTimeout", connectTimeout);
        positive("RedisStoreConfig.socketTimeout", socketTimeout);
        if (maxConnections < 1 || maxConnections > 1024) {
            throw new IllegalArgumentException(
                    "RedisStoreConfig.maxConnections must be between 1 and 1024, got " + maxConnections);
        }
    }

    /** The defaults with host, port, credentials and database from {@code redis://[user:password@]host[:port][/db]}. */
    public static RedisStoreConfig fromUri(String uri) {
        URI u;
        try {
            u = new URI(uri == null ? "" : uri.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("store.uri '" + redact(uri) + "' is not a URI");
        }
        if (!"redis".equalsIgnoreCase(u.getScheme()) || u.getHost() == null) {
            throw new IllegalArgumentException("store.uri '" + redact(uri) + "' must look like redis://host:port");
        }
        String user = "";
        String password = "";
        if (u.getRawUserInfo() != null) {
            String info = u.getRawUserInfo();
            int colon = info.indexOf(':');
            user = decode(colon < 0 ? "" : info.substring(0, colon));
            password = decode(colon < 0 ? info : info.substring(colon + 1));
        }
        int database = 0;
        String path = u.getPath() == null ? "" : u.getPath().replace("/", "");
        if (!path.isEmpty()) {
            try {
                database = Integer.parseInt(path);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("store.uri database '" + path + "' is not a number");
            }
        }
        RedisStoreConfig d = DEFAULTS;
        return new RedisStoreConfig(
                u.getHost(),
                u.getPort() < 0 ? 6379 : u.getPort(),
                user,
                password,
                database,
                d.keyPrefix,
                d.connectTimeout,
                d.socketTimeout,
                d.maxConnections);
    }

    public RedisStoreConfig withKeyPrefix(String prefix) {
        return new RedisStoreConfig(
                host, port, user, password, database, prefix, connectTimeout, socketTimeout, maxConnections);
    }

    public RedisStoreConfig withTimeouts(Duration connect, Duration socket) {
        return new RedisStoreConfig(host, port, user, password, database, keyPrefix, connect, socket, maxConnections);
    }

    public RedisStoreConfig withMaxConnections(int n) {
        return new RedisStoreConfig(host, port, user, password, database, keyPrefix, connectTimeout, socketTimeout, n);
    }

    /**
     * The rule of {@code store.keyPrefix}, for every Redis store (and the configuration loader): 1..64
     * characters, no blanks, control characters or braces (no Redis Cluster hash tags).
     *
     * @param prefix the key prefix
     * @throws IllegalArgumentException starting with {@code store.keyPrefix} when the prefix breaks the rule
     */
    public static void checkKeyPrefix(String prefix) {
        if (prefix == null || prefix.isEmpty() || prefix.length() > 64) {
            throw new IllegalArgumentException("store.keyPrefix must be 1..64 characters, got '" + prefix + "'");
        }
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c <= ' ' || c == '{' || c == '}' || Character.isISOControl(c)) {
                throw new IllegalArgumentException(
                        "store.keyPrefix '" + prefix + "' must not contain blanks, control characters or braces");
            }
        }
    }

    private static void positive(String key, Duration d) {
        if (d == null || d.isNegative() || d.isZero() || d.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(key + " must be a positive duration, got " + d);
        }
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    private static String redact(String uri) {
        return uri == null ? "null" : uri.replaceAll("//[^@/]*@", "//***@");
    }

    @Override
    public String toString() {
        return "RedisStoreConfig[redis://" + (user.isEmpty() && password.isEmpty() ? "" : "***@") + host + ":" + port
                + "/" + database + " keyPrefix=" + keyPrefix + " connectTimeout=" + connectTimeout
                + " socketTimeout=" + socketTimeout + " maxConnections=" + maxConnections + "]";
    }
}
