package dev.proxypool.sdk.config;

import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.nodes.NodeSettings;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.security.SecretHash;
import dev.proxypool.sdk.credentials.Secret;
import dev.proxypool.sdk.redis.RedisClusterConfig;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.sdk.tls.ServerKeyPair;
import dev.proxypool.sdk.tls.TlsFileException;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads {@code proxypool.yaml} (Helidon config, YAML) into a validated {@link ProxyPoolConfig}.
 * Every error is a {@link ConfigException} naming the key; unknown keys are refused; scalars of the
 * top-level sections can be overridden by {@code PROXYPOOL_<KEY>} environment variables.
 */
public final class ConfigLoader {

    /** The shortest plain client secret accepted, here and by the admin API. */
    public static final int MIN_CLIENT_SECRET_LENGTH = 8;

    /** Read when {@code admin} names no token: the admin token of a config-less start. */
    public static final String DEFAULT_ADMIN_TOKEN_ENV = "PROXYPOOL_ADMIN_TOKEN";
    /** Parser messages are cut here: a config error must say what is wrong, not replay the file. */
    private static final int MAX_PARSE_MESSAGE = 200;
    /** See {@link #refuseDeepKeys}. */
    static final int MAX_DOTS_PER_LINE = 200;

    private final Map<String, String> env;

    private ConfigLoader(Map<String, String> env) {
        this.env = env;
    }

    /**
     * Loads {@code file}, with the process environment as overrides.
     *
     * @param file the configuration file
     * @return the validated configuration
     * @throws ConfigException naming the key of a bad value, or {@code --config} for an unreadable file
     */
    public static ProxyPoolConfig load(Path file) {
        return load(file, System.getenv());
    }

    /**
     * Loads {@code file}, with {@code env} as the environment variables that override it.
     *
     * @param file the configuration file
     * @param env  the environment variables ({@code PROXYPOOL_...} overrides and the variables secrets are read from)
     * @return the validated configuration
     * @throws ConfigException naming the key of a bad value, or {@code --config} for an unreadable file
     */
    public static ProxyPoolConfig load(Path file, Map<String, String> env) {
        if (!Files.isRegularFile(file)) {
            throw new ConfigException("--config", "file " + file + " does not exist or is not a file");
        }
        if (!Files.isReadable(file)) {
            throw new ConfigException("--config", "file " + file + " is not readable");
        }
        refuseDeepKeys(file);
        Config config;
        try {
            config = Config.builder()
                    .disableEnvironmentVariablesSource()
                    .disableSystemPropertiesSource()
                    .addSource(ConfigSources.file(file).build())
                    .build();
            config.asNodeList(); // force parsing now, so a YAML syntax error surfaces here
        } catch (RuntimeException e) {
            throw new ConfigException(
                    "--config",
                    "cannot parse " + file + " as YAML" + yamlProblem(e).orElse(": " + rootMessage(e)),
                    e);
        } catch (StackOverflowError e) {
            // Helidon builds the tree recursively: a key of thousands of '.' or a structure nested
            // thousands deep exhausts the stack; the stack has unwound here, the process is fine
            throw new ConfigException(
                    "--config", "cannot parse " + file + " as YAML: keys or structures nest too deeply");
        }
        return new ConfigLoader(env)
                .read(new Node(config, "", env, true), file.toAbsolutePath().getParent());
    }

    /**
     * Refuses a line with more than {@value #MAX_DOTS_PER_LINE} '.' before Helidon sees it: keys nest
     * by '.', and Helidon's tree building is recursive and superlinear in that depth (a 2 KB line of
     * dots took 14 s of CPU, 5,000 dots overflowed the stack).
     */
    private static void refuseDeepKeys(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | UncheckedIOException e) {
            return; // unreadable or not UTF-8: the YAML parser reports it
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int dots = 0;
            for (int j = 0; j < line.length(); j++) {
                if (line.charAt(j) == '.') {
                    dots++;
                }
            }
            if (dots > MAX_DOTS_PER_LINE) {
                throw new ConfigException(
                        "--config",
                        "line " + (i + 1) + " of " + file + " has " + dots + " '.' (more than " + MAX_DOTS_PER_LINE
                                + "): keys nest by '.', so this nests too deeply; write long lists one item a line");
            }
        }
    }

    /**
     * The embedded defaults with environment overrides applied (no file).
     *
     * @param env the environment variables
     * @return the validated configuration
     */
    public static ProxyPoolConfig defaults(Map<String, String> env) {
        Config empty = Config.builder()
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .sources(List.of())
                .build();
        return new ConfigLoader(env).read(new Node(empty, "", env, true), Path.of("."));
    }

    /**
     * Validates a configuration already held as a Helidon {@link Config} tree (the admin API builds
     * one from its stored entities), with the same rules and messages as a file and no environment
     * overrides; relative paths resolve against {@code baseDir}.
     *
     * @param config  the configuration tree
     * @param baseDir the directory relative paths resolve against
     * @return the validated configuration
     */
    public static ProxyPoolConfig read(Config config, Path baseDir) {
        return new ConfigLoader(Map.of()).read(new Node(config, "", Map.of(), false), baseDir);
    }

    /**
     * {@code " at line L, column C: <problem>"} from the YAML parser's marked error (1-based, as
     * editors count), without the echoed source line (it may hold a secret); empty when the error
     * carries no position.
     */
    private static Optional<String> yamlProblem(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof MarkedYAMLException m && m.getProblemMark() != null) {
                String problem = m.getProblem() == null
                        ? "syntax error"
                        : m.getProblem().lines().findFirst().orElse("");
                String context = m.getContext() == null
                        ? ""
                        : " (" + m.getContext().lines().findFirst().orElse("")
                                + (m.getContextMark() == null
                                        ? ""
                                        : " started at line "
                                                + (m.getContextMark().getLine() + 1) + ", column "
                                                + (m.getContextMark().getColumn() + 1))
                                + ")";
                String text = problem + context;
                return Optional.of(" at line " + (m.getProblemMark().getLine() + 1) + ", column "
                        + (m.getProblemMark().getColumn() + 1) + ": "
                        + (text.length() > MAX_PARSE_MESSAGE ? text.substring(0, MAX_PARSE_MESSAGE) + "..." : text));
            }
        }
        return Optional.empty();
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage();
        if (m == null) {
            return t.getClass().getSimpleName();
        }
        m = m.lines().findFirst().orElse(m);
        // Helidon's tree-merge errors dump both subtrees, values (tokens, passwords) included
        int dump = m.indexOf(" (attempted merging values");
        if (dump >= 0) {
            m = m.substring(0, dump) + " (a key is given twice, e.g. as 'a: {b: 1}' and as 'a.b')";
        }
        return m.length() > MAX_PARSE_MESSAGE ? m.substring(0, MAX_PARSE_MESSAGE) + "..." : m;
    }

    private ProxyPoolConfig read(Node root, Path baseDir) {
        root.allowOnly(
                "server",
                "store",
                "database",
                "credentials",
                "admin",
                "clients",
                "providers",
                "upstreams",
                "routings",
                "health",
                "pipeline",
                "security",
                "distribution",
                "gateway",
                "cluster",
                "nodes");
        ProxyPoolConfig.Server server = server(root.child("server"), baseDir);
        ProxyPoolConfig.Store store = store(root.child("store"));
        ProxyPoolConfig.Database database = database(root.child("database"));
        ProxyPoolConfig.Credentials credentials = credentials(root.child("credentials"), baseDir);
        ProxyPoolConfig.Admin admin = admin(root.child("admin"));
        List<ProxyPoolConfig.Client> clients = clients(root);
        List<ProxyPoolConfig.Provider> providers = providers(root, baseDir);
        List<ProxyPoolConfig.Upstream> upstreams = upstreams(root, providers);
        List<RoutingRule> routings = RoutingConfigReader.read(root, upstreams);
        ProxyPoolConfig.Health health = health(root.child("health"));
        ProxyPoolConfig.Pipeline pipeline = pipeline(root.child("pipeline"), baseDir);
        ProxyPoolConfig.Security security = security(root.child("security"));
        ProxyPoolConfig.Distribution distribution = distribution(root.child("distribution"));
        ProxyPoolConfig.Gateway gateway = gateway(root.child("gateway"));
        ClusterSettings cluster = cluster(root.child("cluster"));
        ProxyPoolConfig.Nodes nodes = nodes(root.child("nodes"));
        return new ProxyPoolConfig(
                server,
                store,
                database,
                credentials,
                admin,
                clients,
                providers,
                upstreams,
                routings,
                health,
                pipeline,
                security,
                distribution,
                gateway,
                cluster,
                nodes);
    }

    private ProxyPoolConfig.Server server(Node n, Path baseDir) {
        n.allowOnly(
                "host",
                "gatewayPort",
                "apiPort",
                "accessLog",
                "maxConnections",
                "requestHeadTimeout",
                "apiIdleTimeout",
                "socksPort",
                "gatewayTls",
                "apiTls",
                "firstRequestTimeout",
                "maxConnectionsPerAddress",
                "gatewayThreads");
        ProxyPoolConfig.Server d = ProxyPoolConfig.Server.DEFAULTS;
        int gw = n.integer("gatewayPort", d.gatewayPort(), 0, 65535);
        int api = n.integer("apiPort", d.apiPort(), 0, 65535);
        if (gw != 0 && gw == api) {
            throw new ConfigException(n.key("apiPort"), "must differ from server.gatewayPort (" + gw + ")");
        }
        OptionalInt socks = OptionalInt.empty();
        if (n.has("socksPort")) {
            int p = n.integer("socksPort", 0, 0, 65535);
            if (p != 0 && (p == gw || p == api)) {
                throw new ConfigException(
                        n.key("socksPort"),
                        "must differ from server.gatewayPort (" + gw + ") and server.apiPort (" + api + ")");
            }
            socks = OptionalInt.of(p);
        }
        return new ProxyPoolConfig.Server(
                n.string("host", d.host()),
                gw,
                api,
                n.bool("accessLog", d.accessLog()),
                n.integer("maxConnections", d.maxConnections(), 0, ProxyPoolConfig.Server.MAX_CONNECTIONS),
                positive(n, "requestHeadTimeout", d.requestHeadTimeout()),
                positive(n, "apiIdleTimeout", d.apiIdleTimeout()),
                socks,
                tlsFiles(n.child("gatewayTls"), baseDir),
                tlsFiles(n.child("apiTls"), baseDir),
                positive(n, "firstRequestTimeout", d.firstRequestTimeout()),
                n.integer(
                        "maxConnectionsPerAddress",
                        d.maxConnectionsPerAddress(),
                        1,
                        ProxyPoolConfig.Server.MAX_CONNECTIONS),
                n.integer("gatewayThreads", d.gatewayThreads(), 0, ProxyPoolConfig.Server.MAX_GATEWAY_THREADS));
    }

    /**
     * {@code server.gatewayTls} / {@code server.apiTls}: both files required, read and checked now (a
     * missing or unreadable file, a bad PEM or a key of another certificate is refused at start).
     */
    private static Optional<ProxyPoolConfig.TlsFiles> tlsFiles(Node n, Path baseDir) {
        if (!n.exists()) {
            return Optional.empty();
        }
        n.allowOnly("certFile", "keyFile");
        Path cert = baseDir.resolve(n.requiredString("certFile"));
        Path key = baseDir.resolve(n.requiredString("keyFile"));
        try {
            ServerKeyPair.read(cert, key);
        } catch (TlsFileException e) {
            throw new ConfigException(n.key(e.file().equals(cert) ? "certFile" : "keyFile"), e.getMessage(), e);
        }
        return Optional.of(new ProxyPoolConfig.TlsFiles(cert, key));
    }

    private ProxyPoolConfig.Store store(Node n) {
        n.allowOnly("type", "uri", "keyPrefix", "nodes", "shards", "waitReplicas", "waitTimeout", "index");
        ProxyPoolConfig.Store d = ProxyPoolConfig.Store.DEFAULTS;
        ProxyPoolConfig.StoreType t = n.has("type") ? storeType(n) : d.type();
        String uri = n.string("uri", d.uri());
        if (t == ProxyPoolConfig.StoreType.REDIS && !(uri.startsWith("redis://") || uri.startsWith("rediss://"))) {
            throw new ConfigException(n.key("uri"), "must be a redis:// or rediss:// URI, got '" + uri + "'");
        }
        String prefix = n.string("keyPrefix", d.keyPrefix());
        try {
            RedisStoreConfig.checkKeyPrefix(prefix);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(n.key("keyPrefix"), afterKey("store.keyPrefix", e.getMessage()), e);
        }
        List<String> nodes = n.has("nodes") ? n.strings("nodes") : List.of();
        if (t == ProxyPoolConfig.StoreType.REDIS_CLUSTER) {
            if (nodes.isEmpty()) {
                throw new ConfigException(
                        n.key("nodes"), "must list at least one seed node host:port for store.type redis-cluster");
            }
            for (String node : nodes) {
                int colon = node.lastIndexOf(':');
                if (colon <= 0 || !node.substring(colon + 1).matches("[0-9]{1,5}")) {
                    throw new ConfigException(n.key("nodes"), "entry '" + node + "' must look like host:port");
                }
            }
        } else if (!nodes.isEmpty()) {
            throw new ConfigException(n.key("nodes"), "only applies to store.type redis-cluster");
        }
        int shards = n.integer("shards", d.shards(), 1, RedisClusterConfig.MAX_SHARDS);
        int waitReplicas = n.has("waitReplicas")
                ? n.integer("waitReplicas", 0, 0, RedisClusterConfig.MAX_WAIT_REPLICAS)
                : d.waitReplicas();
        Duration waitTimeout = positive(n, "waitTimeout", d.waitTimeout());
        if (t == ProxyPoolConfig.StoreType.REDIS_CLUSTER) {
            String below =
                    RedisClusterConfig.waitBelowSocketTimeout(waitTimeout, RedisClusterConfig.DEFAULT_SOCKET_TIMEOUT);
            if (below != null) {
                throw new ConfigException(n.key("waitTimeout"), below);
            }
        }
        return index(
                n.child("index"), new ProxyPoolConfig.Store(t, uri, prefix, nodes, shards, waitReplicas, waitTimeout));
    }

    /** {@code store.type}, given. */
    private static ProxyPoolConfig.StoreType storeType(Node n) {
        String type = n.string("type", "").toLowerCase(Locale.ROOT);
        return switch (type) {
            case "memory" -> ProxyPoolConfig.StoreType.MEMORY;
            case "redis" -> ProxyPoolConfig.StoreType.REDIS;
            case "redis-cluster" -> ProxyPoolConfig.StoreType.REDIS_CLUSTER;
            default ->
                throw new ConfigException(
                        n.key("type"), "unknown store type '" + type + "' (expected memory, redis or redis-cluster)");
        };
    }

    /**
     * {@code store.index}: {@code dimensions} (label keys, checked as the stores will use them),
     * {@code protocol} and {@code upstream}, onto {@code store}.
     */
    private static ProxyPoolConfig.Store index(Node n, ProxyPoolConfig.Store store) {
        n.allowOnly("dimensions", "protocol", "upstream");
        List<String> dims = StoreSettings.DEFAULT_INDEX_DIMENSIONS;
        if (n.has("dimensions")) {
            try {
                dims = StoreSettings.builder()
                        .indexDimensions(n.strings("dimensions"))
                        .build()
                        .indexDimensions();
            } catch (IllegalArgumentException e) {
                throw new ConfigException(n.key("dimensions"), e.getMessage());
            }
        }
        return store.withIndexDimensions(dims)
                .withIndexProtocol(n.bool("protocol", true))
                .withIndexUpstream(n.bool("upstream", false));
    }

    private ProxyPoolConfig.Database database(Node n) {
        n.allowOnly("type", "url", "user", "password", "passwordEnv");
        String type = n.string("type", "none").toLowerCase(Locale.ROOT);
        return switch (type) {
            case "none" -> ProxyPoolConfig.Database.DEFAULTS;
            case "postgres", "postgresql" -> {
                String url = n.requiredString("url");
                if (!url.startsWith("jdbc:postgresql:")) {
                    throw new ConfigException(n.key("url"), "must be a jdbc:postgresql: URL, got '" + url + "'");
                }
                yield new ProxyPoolConfig.Database(
                        ProxyPoolConfig.DatabaseType.POSTGRES,
                        url,
                        n.string("user", ""),
                        secret(n, "password", "passwordEnv"));
            }
            default ->
                throw new ConfigException(
                        n.key("type"), "unknown database type '" + type + "' (expected none or postgres)");
        };
    }

    private ProxyPoolConfig.Credentials credentials(Node n, Path baseDir) {
        n.allowOnly("file");
        String file = n.string("file", "");
        return new ProxyPoolConfig.Credentials(file.isEmpty() ? Optional.empty() : Optional.of(baseDir.resolve(file)));
    }

    private ProxyPoolConfig.Admin admin(Node n) {
        n.allowOnly("token", "tokenEnv", "requestLog", "flags");
        int requestLog = n.integer("requestLog", ProxyPoolConfig.Admin.DEFAULT_REQUEST_LOG, 0, 100_000);
        Node f = n.child("flags").allowOnly("healthyShare", "noCandidateShare", "minRequests");
        ProxyPoolConfig.Admin.Flags fd = ProxyPoolConfig.Admin.Flags.DEFAULTS;
        ProxyPoolConfig.Admin.Flags flags = new ProxyPoolConfig.Admin.Flags(
                f.decimal("healthyShare", fd.healthyShare(), 0, 1),
                f.decimal("noCandidateShare", fd.noCandidateShare(), 0, 1),
                f.integer("minRequests", fd.minRequests(), 1, 100_000));
        Optional<Secret> token = secret(n, "token", "tokenEnv");
        if (token.isEmpty()
                && env.get(DEFAULT_ADMIN_TOKEN_ENV) != null
                && !env.get(DEFAULT_ADMIN_TOKEN_ENV).isEmpty()) {
            token = Optional.of(Secret.of(env.get(DEFAULT_ADMIN_TOKEN_ENV)));
        }
        token.ifPresent(t -> {
            if (t.reveal().length() < 16) {
                throw new ConfigException(n.key("token"), "must be at least 16 characters");
            }
        });
        return new ProxyPoolConfig.Admin(token, requestLog, flags);
    }

    /** A secret given inline ({@code key}) or by the name of an environment variable ({@code envKey}). */
    private Optional<Secret> secret(Node n, String key, String envKey) {
        String inline = n.fileString(key);
        String envName = n.fileString(envKey);
        if (!inline.isEmpty() && !envName.isEmpty()) {
            throw new ConfigException(n.key(key), "give either " + key + " or " + envKey + ", not both");
        }
        if (!envName.isEmpty()) {
            String v = env.get(envName);
            if (v == null || v.isEmpty()) {
                throw new ConfigException(n.key(envKey), "environment variable " + envName + " is not set");
            }
            return Optional.of(Secret.of(v));
        }
        return inline.isEmpty() ? Optional.empty() : Optional.of(Secret.of(inline));
    }

    private List<ProxyPoolConfig.Client> clients(Node root) {
        List<ProxyPoolConfig.Client> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Node c : root.objects("clients")) {
            c.allowOnly("name", "secretHash", "secret", "secretEnv", "token", "tokenEnv", "quota", "rateLimit");
            String name = name(c, names);
            String hash = c.string("secretHash", "");
            if (!hash.isEmpty()) {
                try {
                    SecretHash.requireValid(hash, "secretHash");
                } catch (IllegalArgumentException e) {
                    throw new ConfigException(
                            c.key("secretHash"), e.getMessage().substring("secretHash: ".length()));
                }
            }
            Optional<Secret> plain = secret(c, "secret", "secretEnv");
            if (!hash.isEmpty() && plain.isPresent()) {
                throw new ConfigException(c.key("secret"), "give either secretHash or secret, not both");
            }
            if (plain.isPresent() && plain.get().reveal().length() < MIN_CLIENT_SECRET_LENGTH) {
                throw new ConfigException(
                        c.key(c.fileString("secretEnv").isEmpty() ? "secret" : "secretEnv"),
                        "must be at least " + MIN_CLIENT_SECRET_LENGTH + " characters");
            }
            Optional<Secret> token = secret(c, "token", "tokenEnv");
            token.ifPresent(t -> {
                if (t.reveal().length() < 16) {
                    throw new ConfigException(c.key("token"), "must be at least 16 characters");
                }
            });
            Node quota = c.child("quota").allowOnly("extractionsPerHour");
            Node rate = c.child("rateLimit").allowOnly("rps");
            out.add(new ProxyPoolConfig.Client(
                    name,
                    hash.isEmpty() ? Optional.empty() : Optional.of(hash),
                    plain,
                    token,
                    quota.integer("extractionsPerHour", 0, 0, Integer.MAX_VALUE),
                    rate.decimal("rps", 0, 0, 1_000_000)));
        }
        return out;
    }

    static String name(Node n, Set<String> seen) {
        String name = n.requiredString("name");
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
            throw new ConfigException(
                    n.key("name"), "'" + name + "' is not a valid name (letters, digits, '.', '_', '-'; at most 64)");
        }
        if (!seen.add(name)) {
            throw new ConfigException(n.key("name"), "'" + name + "' is defined twice");
        }
        return name;
    }

    /** The scalar provider keys handed to the adapter as settings (it validates them). */
    private static final List<String> PROVIDER_SETTINGS = List.of(
            "path",
            "url",
            "tokenEnv",
            "username",
            "passwordEnv",
            "format",
            "protocol",
            "maxBytes",
            "timeout",
            "credentialRef",
            // http_json_feed: an object answer's list, and how its expiry is written
            "listField",
            "expiresAtFormat",
            "expiresAtZone",
            // session_gateway (docs/providers.md)
            "endpoint",
            "preset",
            "usernameTemplate",
            "passwordTemplate",
            "lifetimeUnit",
            "sessions",
            "sessionLifetime",
            "sessionIdLength",
            "sessionIdAlphabet");

    private List<ProxyPoolConfig.Provider> providers(Node root, Path baseDir) {
        List<ProxyPoolConfig.Provider> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Node p : root.objects("providers")) {
            List<String> allowed = new ArrayList<>(List.of("name", "type", "fields", "labels"));
            allowed.addAll(PROVIDER_SETTINGS);
            p.allowOnly(allowed.toArray(String[]::new));
            String name = name(p, names);
            String type = p.requiredString("type");
            Map<String, String> settings = new LinkedHashMap<>();
            for (String k : PROVIDER_SETTINGS) {
                String v = p.string(k, "");
                if (!v.isEmpty()) {
                    // file paths are relative to the config file, like every other path in it
                    settings.put(k, k.equals("path") ? baseDir.resolve(v).toString() : v);
                }
            }
            p.map("labels").forEach((k, v) -> settings.put("labels." + k, v));
            out.add(new ProxyPoolConfig.Provider(name, type, Map.copyOf(settings), p.map("fields")));
        }
        return out;
    }

    private List<ProxyPoolConfig.Upstream> upstreams(Node root, List<ProxyPoolConfig.Provider> providers) {
        Set<String> providerNames = new HashSet<>();
        providers.forEach(p -> providerNames.add(p.name()));
        List<ProxyPoolConfig.Upstream> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Node u : root.objects("upstreams")) {
            u.allowOnly("name", "provider", "params", "fetch", "validate", "resolveDestinations");
            String name = name(u, names);
            String provider = u.requiredString("provider");
            if (!providerNames.contains(provider)) {
                throw new ConfigException(
                        u.key("provider"), "names provider '" + provider + "', which is not defined under providers");
            }
            Node fetch = u.child("fetch").allowOnly("interval", "lowWaterMark");
            Duration interval = fetch.duration("interval", Duration.ofSeconds(30));
            if (interval.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new ConfigException(
                        fetch.key("interval"), "must be at least 1s, got " + Durations.format(interval));
            }
            out.add(new ProxyPoolConfig.Upstream(
                    name,
                    provider,
                    u.map("params"),
                    interval,
                    fetch.integer("lowWaterMark", 0, 0, Integer.MAX_VALUE),
                    u.bool("validate", true),
                    u.has("resolveDestinations")
                            ? Optional.of(u.bool("resolveDestinations", false))
                            : Optional.empty()));
        }
        return out;
    }

    private ProxyPoolConfig.Health health(Node n) {
        n.allowOnly("passive", "active", "cooldown", "domainBan", "slowStart", "probeTimeout");
        HealthPolicy d = HealthPolicy.DEFAULTS;
        Node passive = n.child("passive")
                .allowOnly("consecutiveFailures", "errorRate", "window", "minSamples", "distinctTargetFailures");
        Node active = n.child("active").allowOnly("enabled", "interval", "failuresToCool", "targets");
        Node cooldown = n.child("cooldown").allowOnly("initial", "max");
        Node ban = n.child("domainBan").allowOnly("duration", "maxPerProxy");
        ProxyPoolConfig.Health hd = ProxyPoolConfig.Health.DEFAULTS;
        int failuresToCool = active.integer("failuresToCool", hd.activeFailuresToCool(), 1, 100);
        HealthPolicy policy;
        try {
            policy = new HealthPolicy(
                            passive.integer("consecutiveFailures", d.consecutiveFailures(), 1, 1000),
                            passive.decimal("errorRate", d.errorRate(), 0.000001, 1),
                            passive.duration("window", d.window()),
                            passive.integer("minSamples", d.minSamples(), 1, 1_000_000),
                            cooldown.duration("initial", d.cooldownInitial()),
                            cooldown.duration("max", d.cooldownMax()),
                            n.duration("probeTimeout", d.probeTimeout()),
                            ban.duration("duration", d.domainBanDuration()),
                            ban.integer("maxPerProxy", d.maxBansPerProxy(), 1, 1_000_000),
                            n.duration("slowStart", d.slowStart()),
                            failuresToCool)
                    .withDistinctTargetFailures(
                            passive.integer("distinctTargetFailures", d.distinctTargetFailures(), 1, 1000));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("health", e.getMessage(), e);
        }
        List<String> targets = active.has("targets") ? active.strings("targets") : hd.activeTargets();
        for (int i = 0; i < targets.size(); i++) {
            String t = targets.get(i);
            if (!(t.startsWith("http://") || t.startsWith("https://"))) {
                throw new ConfigException(
                        active.key("targets") + "[" + i + "]", "must be an http:// or https:// URL, got '" + t + "'");
            }
        }
        boolean enabled = active.bool("enabled", hd.activeEnabled());
        if (enabled && targets.isEmpty()) {
            throw new ConfigException(
                    active.key("targets"), "must name at least one probe target while active probing is enabled");
        }
        return new ProxyPoolConfig.Health(
                policy,
                enabled,
                atMost(active, "interval", hd.activeInterval(), ProxyPoolConfig.Health.MAX_ACTIVE_INTERVAL),
                failuresToCool,
                List.copyOf(targets));
    }

    private ProxyPoolConfig.Pipeline pipeline(Node n, Path baseDir) {
        n.allowOnly(
                "echoUrl",
                "validationConcurrency",
                "validationTimeout",
                "minScore",
                "poolSize",
                "reserveSize",
                "asnDatabase",
                "asnMaxAge",
                "unknownAsnPenalty",
                "unknownAsnMaxShare");
        ProxyPoolConfig.Pipeline d = ProxyPoolConfig.Pipeline.DEFAULTS;
        String echo = n.string("echoUrl", d.echoUrl());
        if (!(echo.startsWith("http://") || echo.startsWith("https://"))) {
            throw new ConfigException(n.key("echoUrl"), "must be an http:// or https:// URL, got '" + echo + "'");
        }
        String asn = n.string("asnDatabase", "");
        return new ProxyPoolConfig.Pipeline(
                echo,
                n.integer(
                        "validationConcurrency",
                        d.validationConcurrency(),
                        1,
                        ProxyPoolConfig.Pipeline.MAX_VALIDATION_CONCURRENCY),
                atMost(n, "validationTimeout", d.validationTimeout(), ProxyPoolConfig.Pipeline.MAX_VALIDATION_TIMEOUT),
                n.decimal("minScore", d.minScore(), 0, 1_000_000),
                n.integer("poolSize", d.poolSize(), 1, 10_000_000),
                n.integer("reserveSize", d.reserveSize(), 0, 10_000_000),
                asn.isEmpty() ? Optional.empty() : Optional.of(baseDir.resolve(asn)),
                n.duration("asnMaxAge", d.asnMaxAge()),
                unknownAsnPenalty(n, d),
                n.decimal("unknownAsnMaxShare", d.unknownAsnMaxShare(), 0, 1));
    }

    private static double unknownAsnPenalty(Node n, ProxyPoolConfig.Pipeline d) {
        double v = n.decimal("unknownAsnPenalty", d.unknownAsnPenalty(), 0, 1);
        if (v <= 0) {
            throw new ConfigException(n.key("unknownAsnPenalty"), "must be above 0 (1: no penalty), got " + v);
        }
        return v;
    }

    private ProxyPoolConfig.Security security(Node n) {
        n.allowOnly("allowPrivateDestinations", "connectPorts", "allowDestinations", "allowAnonymous");
        ProxyPoolConfig.Security d = ProxyPoolConfig.Security.DEFAULTS;
        List<Integer> ports = new ArrayList<>();
        if (n.has("connectPorts")) {
            List<String> raw = n.strings("connectPorts");
            for (int i = 0; i < raw.size(); i++) {
                try {
                    int p = Integer.parseInt(raw.get(i));
                    if (p < 1 || p > 65535) {
                        throw new NumberFormatException();
                    }
                    ports.add(p);
                } catch (NumberFormatException e) {
                    throw new ConfigException(
                            n.key("connectPorts") + "[" + i + "]", "'" + raw.get(i) + "' is not a port (1..65535)");
                }
            }
        } else {
            ports.addAll(d.connectPorts());
        }
        return new ProxyPoolConfig.Security(
                n.bool("allowPrivateDestinations", d.allowPrivateDestinations()),
                List.copyOf(ports),
                n.strings("allowDestinations"),
                n.bool("allowAnonymous", d.allowAnonymous()));
    }

    private ProxyPoolConfig.Distribution distribution(Node n) {
        n.allowOnly("gatewayReserve", "idempotencyTtl", "maxCount", "leaseHold", "leaseMaxHold", "leaseSessionIdle");
        ProxyPoolConfig.Distribution d = ProxyPoolConfig.Distribution.DEFAULTS;
        Duration ttl = n.duration("idempotencyTtl", d.idempotencyTtl());
        if (ttl.isZero()) {
            throw new ConfigException(n.key("idempotencyTtl"), "must be positive");
        }
        Duration maxHold = positive(n, "leaseMaxHold", d.leaseMaxHold());
        if (maxHold.compareTo(Duration.ofHours(24)) > 0) {
            throw new ConfigException(n.key("leaseMaxHold"), "must be at most 24h, got " + maxHold);
        }
        Duration hold = positive(n, "leaseHold", d.leaseHold().compareTo(maxHold) > 0 ? maxHold : d.leaseHold());
        if (hold.compareTo(maxHold) > 0) {
            throw new ConfigException(
                    n.key("leaseHold"), "must not exceed distribution.leaseMaxHold (" + maxHold + "), got " + hold);
        }
        if (hold.toMillis() < 1000) {
            throw new ConfigException(n.key("leaseHold"), "must be at least 1s, got " + hold);
        }
        return new ProxyPoolConfig.Distribution(
                n.integer("gatewayReserve", d.gatewayReserve(), 0, Integer.MAX_VALUE),
                ttl,
                n.integer("maxCount", d.maxCount(), 1, 100_000),
                hold,
                maxHold,
                positive(n, "leaseSessionIdle", d.leaseSessionIdle()));
    }

    private ProxyPoolConfig.Gateway gateway(Node n) {
        n.allowOnly("ioTimeout", "idleTimeout", "tunnelIdleTimeout", "firstByteTimeout");
        ProxyPoolConfig.Gateway d = ProxyPoolConfig.Gateway.DEFAULTS;
        return new ProxyPoolConfig.Gateway(
                positive(n, "ioTimeout", d.ioTimeout()),
                positive(n, "idleTimeout", d.idleTimeout()),
                positive(n, "tunnelIdleTimeout", d.tunnelIdleTimeout()),
                positive(n, "firstByteTimeout", d.firstByteTimeout()));
    }

    /** {@code cluster}: snapshot distribution between the control plane and the workers (store.type: redis). */
    private ClusterSettings cluster(Node n) {
        n.allowOnly(
                "validity",
                "renewAfter",
                "deltasKept",
                "fullEvery",
                "deflate",
                "pollInterval",
                "backoffMin",
                "backoffMax",
                "workerTtl",
                "leaseTtl");
        ClusterSettings d = ClusterSettings.DEFAULTS;
        Duration validity = positive(n, "validity", d.validity());
        Duration renewAfter = positive(n, "renewAfter", d.renewAfter());
        int deltasKept = n.integer("deltasKept", d.deltasKept(), 1, ClusterSettings.MAX_DELTAS_KEPT);
        int fullEvery = n.integer("fullEvery", d.fullEvery(), 1, ClusterSettings.MAX_DELTAS_KEPT);
        boolean deflate = n.bool("deflate", d.deflate());
        Duration pollInterval = positive(n, "pollInterval", d.pollInterval());
        Duration backoffMin = positive(n, "backoffMin", d.backoffMin());
        Duration backoffMax = positive(n, "backoffMax", d.backoffMax());
        Duration workerTtl = positive(n, "workerTtl", d.workerTtl());
        Duration leaseTtl = positive(n, "leaseTtl", d.leaseTtl());
        try {
            return new ClusterSettings(
                    validity,
                    renewAfter,
                    deltasKept,
                    fullEvery,
                    deflate,
                    pollInterval,
                    backoffMin,
                    backoffMax,
                    workerTtl,
                    leaseTtl);
        } catch (IllegalArgumentException e) {
            // the message names the keys ("cluster.renewAfter 6m must be at most half of cluster.validity 10m ...")
            String m = e.getMessage();
            int space = m.indexOf(' ');
            String key = space > 0 && m.startsWith("cluster.") ? m.substring(0, space) : "cluster";
            throw new ConfigException(key, space > 0 && m.startsWith("cluster.") ? m.substring(space + 1) : m, e);
        }
    }

    /** {@code nodes}: timing of self-hosted ProxyNode agents (heartbeats, liveness, credentials). */
    private ProxyPoolConfig.Nodes nodes(Node n) {
        n.allowOnly("heartbeatInterval", "livenessTimeout", "credentialTtl", "sweepInterval", "resolveDestinations");
        ProxyPoolConfig.Nodes d = ProxyPoolConfig.Nodes.DEFAULTS;
        Duration heartbeat = positive(n, "heartbeatInterval", d.heartbeatInterval());
        Duration liveness = positive(n, "livenessTimeout", d.livenessTimeout());
        Duration credential = positive(n, "credentialTtl", d.credentialTtl());
        Duration sweep = positive(n, "sweepInterval", d.sweepInterval());
        try {
            new NodeSettings(heartbeat, liveness, credential, sweep); // the rules between the keys
            return new ProxyPoolConfig.Nodes(
                    heartbeat, liveness, credential, sweep, n.bool("resolveDestinations", d.resolveDestinations()));
        } catch (IllegalArgumentException e) {
            // the message starts with the key ("nodes.livenessTimeout PT5S must be longer than ...")
            String m = e.getMessage();
            int space = m.indexOf(' ');
            String key = space > 0 && m.startsWith("nodes.") ? m.substring(0, space) : "nodes";
            throw new ConfigException(key, space > 0 && m.startsWith("nodes.") ? m.substring(space + 1) : m, e);
        }
    }

    /** A positive duration of at most {@code max}. */
    private static Duration atMost(Node n, String key, Duration def, Duration max) {
        Duration d = positive(n, key, def);
        if (d.compareTo(max) > 0) {
            throw new ConfigException(
                    n.key(key), "must be at most " + Durations.format(max) + ", got " + Durations.format(d));
        }
        return d;
    }

    /** A record's message without the key it starts with (the exception names the key). */
    private static String afterKey(String key, String message) {
        return message.startsWith(key + " ") ? message.substring(key.length() + 1) : message;
    }

    private static Duration positive(Node n, String key, Duration def) {
        Duration d = n.duration(key, def);
        if (d.isZero() || d.isNegative()) {
            throw new ConfigException(n.key(key), "must be positive, got " + d);
        }
        return d;
    }
}
