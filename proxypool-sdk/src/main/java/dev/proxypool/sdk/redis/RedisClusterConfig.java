package dev.proxypool.sdk.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Where and how {@link RedisClusterPoolStore} talks to a Redis Cluster (config
 * {@code store: {type: redis-cluster, nodes, keyPrefix, shards, waitReplicas, waitTimeout}},
 * docs/configuration.md#store). Validated on construction with messages naming the key.
 *
 * @param nodes          seed nodes {@code host:port} [{@code store.nodes}, required]; the
 *                       topology (every master and replica) is discovered from them
 * @param user           ACL user, empty for the default user
 * @param password       password, empty for none; never printed
 * @param keyPrefix      every key of the store starts with it [{@code store.keyPrefix}, {@code pp:}]
 * @param connectTimeout TCP connect bound [2 s]
 * @param socketTimeout  bound on each reply [2 s]
 * @param maxConnections pooled connections per node [16]
 * @param shards         hash-tagged partitions of the pool [{@code store.shards}, 16], 1..{@value #MAX_SHARDS}
 * @param waitReplicas   replicas that must acknowledge an extraction before it is answered
 *                       [{@code store.waitReplicas}]; {@value #WAIT_AUTO} (the default) means 1
 *                       when the shard's master has a connected replica, else 0
 * @param waitTimeout    how long an extraction waits for those acknowledgements
 *                       [{@code store.waitTimeout}, 500 ms], below {@code socketTimeout}
 */
public record RedisClusterConfig(
        List<String> nodes,
        String user,
        String password,
        String keyPrefix,
        Duration connectTimeout,
        Duration socketTimeout,
        int maxConnections,
        int shards,
        int waitReplicas,
        Duration waitTimeout) {

    /** {@code waitReplicas}: 1 when the master has a connected replica, else 0. */
    public static final int WAIT_AUTO = -1;
    /** The most shards a pool may have. */
    public static final int MAX_SHARDS = 1024;
    /** The most replicas {@code store.waitReplicas} may ask for. */
    public static final int MAX_WAIT_REPLICAS = 16;
    /** The default number of shards. */
    public static final int DEFAULT_SHARDS = 16;
    /** The client's socket timeout (each reply's bound), and connect timeout, unless {@link #withTimeouts} sets them. */
    public static final Duration DEFAULT_SOCKET_TIMEOUT = RedisStoreConfig.DEFAULTS.socketTimeout();
    /** The default bound of {@code WAIT}. */
    public static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofMillis(500);

    public RedisClusterConfig {
        if (nodes == null || nodes.isEmpty()) {
            throw new IllegalArgumentException("store.nodes must list at least one seed node host:port");
        }
        List<String> checked = new ArrayList<>(nodes.size());
        for (String n : nodes) {
            checked.add(checkNode(n));
        }
        nodes = List.copyOf(checked);
        user = user == null ? "" : user;
        password = password == null ? "" : password;
        // the single-node validation of the shared fields, with its messages
        new RedisStoreConfig("127.0.0.1", 6379, user, password, 0, keyPrefix, connectTimeout, socketTimeout, 1);
        if (maxConnections < 1 || maxConnections > 1024) {
            throw new IllegalArgumentException(
                    "RedisClusterConfig.maxConnections must be between 1 and 1024, got " + maxConnections);
        }
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new IllegalArgumentException("store.shards must be between 1 and " + MAX_SHARDS + ", got " + shards);
        }
        if (waitReplicas < WAIT_AUTO || waitReplicas > MAX_WAIT_REPLICAS) {
            throw new IllegalArgumentException(
                    "store.waitReplicas must be between 0 and " + MAX_WAIT_REPLICAS + ", got " + waitReplicas);
        }
        if (waitTimeout == null
                || waitTimeout.isNegative()
                || waitTimeout.isZero()
                || waitTimeout.toMillis() > 60_000) {
            throw new IllegalArgumentException("store.waitTimeout must be between 1 ms and 60 s, got " + waitTimeout);
        }
        String below = waitBelowSocketTimeout(waitTimeout, socketTimeout);
        if (below != null) {
            throw new IllegalArgumentException("store.waitTimeout " + below);
        }
    }

    /**
     * Null when {@code waitTimeout} is below {@code socketTimeout}, else why not (after the key
     * {@code store.waitTimeout}, which the caller names): {@code WAIT} holds
     * an extraction's reply for up to {@code store.waitTimeout}, and a reply later than the client's
     * socket timeout is a lost reply (proxies extracted, not delivered).
     */
    public static String waitBelowSocketTimeout(Duration waitTimeout, Duration socketTimeout) {
        if (waitTimeout.compareTo(socketTimeout) < 0) {
            return null;
        }
        return "(" + waitTimeout.toMillis() + " ms) must be below the Redis Cluster client's socket timeout ("
                + socketTimeout.toMillis() + " ms): WAIT holds an extraction's reply for up to store.waitTimeout,"
                + " and a reply later than the socket timeout is lost (proxies extracted, not delivered)";
    }

    /** Seed nodes with the defaults: prefix {@code pp:}, 2 s timeouts, 16 connections, 16 shards, waitReplicas auto, 500 ms. */
    public static RedisClusterConfig of(List<String> nodes) {
        return new RedisClusterConfig(
                nodes,
                "",
                "",
                RedisStoreConfig.DEFAULTS.keyPrefix(),
                RedisStoreConfig.DEFAULTS.connectTimeout(),
                DEFAULT_SOCKET_TIMEOUT,
                RedisStoreConfig.DEFAULTS.maxConnections(),
                DEFAULT_SHARDS,
                WAIT_AUTO,
                DEFAULT_WAIT_TIMEOUT);
    }

    public RedisClusterConfig withKeyPrefix(String prefix) {
        return new RedisClusterConfig(
                nodes,
                user,
                password,
                prefix,
                connectTimeout,
                socketTimeout,
                maxConnections,
                shards,
                waitReplicas,
                waitTimeout);
    }

    public RedisClusterConfig withShards(int n) {
        return new RedisClusterConfig(
                nodes,
                user,
                password,
                keyPrefix,
                connectTimeout,
                socketTimeout,
                maxConnections,
                n,
                waitReplicas,
                waitTimeout);
    }

    /** With {@code waitReplicas} ({@link #WAIT_AUTO} for the default) and its bound. */
    public RedisClusterConfig withWait(int replicas, Duration timeout) {
        return new RedisClusterConfig(
                nodes,
                user,
                password,
                keyPrefix,
                connectTimeout,
                socketTimeout,
                maxConnections,
                shards,
                replicas,
                timeout);
    }

    public RedisClusterConfig withMaxConnections(int n) {
        return new RedisClusterConfig(
                nodes, user, password, keyPrefix, connectTimeout, socketTimeout, n, shards, waitReplicas, waitTimeout);
    }

    public RedisClusterConfig withTimeouts(Duration connect, Duration socket) {
        return new RedisClusterConfig(
                nodes, user, password, keyPrefix, connect, socket, maxConnections, shards, waitReplicas, waitTimeout);
    }

    /** The host of a checked {@code host:port}. */
    static String host(String node) {
        return node.substring(0, node.lastIndexOf(':'));
    }

    /** The port of a checked {@code host:port}. */
    static int port(String node) {
        return Integer.parseInt(node.substring(node.lastIndexOf(':') + 1));
    }

    private static String checkNode(String node) {
        String n = node == null ? "" : node.trim();
        int colon = n.lastIndexOf(':');
        if (colon <= 0 || colon == n.length() - 1) {
            throw new IllegalArgumentException("store.nodes entry '" + node + "' must look like host:port");
        }
        int port;
        try {
            port = Integer.parseInt(n.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("store.nodes entry '" + node + "' has no numeric port");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(
                    "store.nodes entry '" + node + "': port " + port + " is out of range 1..65535");
        }
        return n;
    }

    @Override
    public String toString() {
        return "RedisClusterConfig[nodes=" + nodes + (user.isEmpty() && password.isEmpty() ? "" : " auth=***")
                + " keyPrefix=" + keyPrefix + " shards=" + shards + " waitReplicas="
                + (waitReplicas == WAIT_AUTO ? "auto" : Integer.toString(waitReplicas)) + " waitTimeout="
                + waitTimeout + "]";
    }
}
