package dev.proxypool.sdk.fuzz;

import dev.proxypool.testkit.fuzz.Mutator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code proxypool.yaml} texts and {@code PROXYPOOL_*} environments for the config loader: mutated
 * valid configs, configs assembled from the schema's sections with random values, and random
 * overrides. Every secret the generator writes contains {@link #CANARY}, so a test can prove no
 * error message ever repeats one.
 */
final class ConfigTexts {

    static final String CANARY = "CANARY7f3e";
    static final String TOKEN = CANARY + "-admin-token-0123456789";

    static final String[] SEEDS = {
        """
            server:   { host: 127.0.0.1, gatewayPort: 8080, apiPort: 9090 }
            store:    { type: memory, keyPrefix: "pp:" }
            database: { type: none }
            admin: { token: "%s" }
            clients:
              - { name: alice, secret: "%s-alice", token: "%s-alice-token", quota: { extractionsPerHour: 1000 }, rateLimit: { rps: 200 } }
            providers:
              - { name: lab, type: jsonl_inventory, path: inventory/upstreams.jsonl }
              - { name: vendor-a, type: http_json_feed, url: "https://vendor.example/api", tokenEnv: VENDOR_A_TOKEN,
                  fields: { host: ip, port: port }, labels: { tier: gold } }
            upstreams:
              - { name: vendor-a-us, provider: vendor-a, params: { country: US }, fetch: { interval: 30s, lowWaterMark: 50 } }
              - { name: lab, provider: lab, validate: false }
            routings:
              - name: shop
                match: { hosts: ["*.shop.example"], ports: [443], methods: [GET], headers: { X-A: b } }
                strategy: sequential
                upstreams: [vendor-a-us, lab]
                exhaustion: stop
                emptyThreshold: 3
                filter: { protocol: http, labels: { type: residential } }
                minRemainingTtl: 30s
                sticky: { enabled: true, header: X-ProxyPool-Session, lifetime: 10m, idle: 60s, onLost: repin, maxEntries: 100000 }
                retry: { maxAttempts: 2, budgetPercent: 20 }
                onNoCandidate: reject
                waitTimeout: 2s
              - name: rest
            health:
              passive: { consecutiveFailures: 3, errorRate: 0.30, window: 60s, minSamples: 20 }
              active:  { enabled: true, interval: 30s, failuresToCool: 2, targets: ["http://127.0.0.1:9090/v1/echo"] }
              cooldown: { initial: 3m, max: 30m }
              domainBan: { duration: 10m, maxPerProxy: 1000 }
              slowStart: 60s
              probeTimeout: 5s
            pipeline: { echoUrl: "http://127.0.0.1:9090/v1/echo", validationConcurrency: 100, validationTimeout: 8s,
                        minScore: 18, poolSize: 150, reserveSize: 700, asnMaxAge: 7d }
            security: { allowPrivateDestinations: false, connectPorts: [443, 8443], allowDestinations: ["10.0.0.0/8"] }
            distribution: { gatewayReserve: 5, idempotencyTtl: 24h, maxCount: 100 }
            """.formatted(TOKEN, CANARY, CANARY),
        "server:\n  gatewayPort: 0\n  apiPort: 0\nclients:\n  - name: bob\n    secretEnv: BOB_SECRET\n    tokenEnv: BOB_TOKEN\n",
        "# empty but for a comment\n",
        "database:\n  type: postgres\n  url: jdbc:postgresql://127.0.0.1:5432/test\n  user: pp\n  passwordEnv: PG_PASSWORD\n"
                + "store: { type: redis, uri: \"redis://127.0.0.1:6379\" }\n",
    };

    static final Mutator MUTATOR = Mutator.of(
            48 * 1024,
            ": ",
            ":",
            "- ",
            "\n",
            "\n  ",
            "\n    - ",
            "{",
            "}",
            "[",
            "]",
            ",",
            "#",
            "&a ",
            "*a",
            "!!binary ",
            "!!str ",
            "!!int ",
            "!!float ",
            "!!null",
            "!!map",
            "<<: *a",
            "---\n",
            "...\n",
            "|\n",
            ">\n",
            "'",
            "\"",
            "~",
            "null",
            "true",
            "0x1F",
            "0o17",
            ".inf",
            "-.inf",
            ".nan",
            "2001-01-01",
            "? ",
            "server",
            "store",
            "clients",
            "providers",
            "upstreams",
            "routings",
            "health",
            "pipeline",
            "security",
            "distribution",
            "admin",
            "name",
            "type",
            "token",
            "secret",
            "gatewayPort",
            "interval",
            "30s",
            "PT-1S",
            "1e999999999s",
            "99999999999999999999",
            "%TAG ! tag:x,2000:\n",
            "%YAML 1.1\n",
            "\t",
            "\ufeff");

    private static final String[] DURATIONS = {
        "30s",
        "500ms",
        "10m",
        "24h",
        "7d",
        "0",
        "0s",
        "-1s",
        "PT30S",
        "PT-1S",
        "P1000000000D",
        "1e999999999s",
        "1.5s",
        "s",
        "",
        "30 s",
        "30S",
        "1w",
        "NaN",
        "99999999999999999999h",
        ".5m",
        "9223372036854775807ms",
        "P",
        "PT"
    };
    private static final String[] INTS = {
        "0",
        "1",
        "-1",
        "65535",
        "65536",
        "2147483647",
        "2147483648",
        "-2147483649",
        "1.0",
        "1e3",
        "0x10",
        "010",
        "",
        "abc",
        "99999999999999999999999999",
        " 8080 ",
        "+5",
        "1_000"
    };
    private static final String[] DECIMALS = {
        "0", "0.5", "1", "1e-7", "1e999", "-0.1", "NaN", "Infinity", "0x1p3", "", "1,5", "2", "1000001"
    };
    private static final String[] STRINGS = {
        "",
        "x",
        "memory",
        "redis",
        "none",
        "postgres",
        "http://h/echo",
        "ftp://h",
        "redis://127.0.0.1:6379",
        "jdbc:postgresql://h/db",
        "a b",
        "\u00e9\u4e2d",
        "pp:",
        "'quoted'",
        "roundRobin",
        "sequential",
        "weighted",
        "random",
        "stop",
        "continue",
        "reject",
        "direct",
        "wait",
        "repin",
        "fail",
        "client",
        "host",
        "http",
        "socks5",
        "*.example",
        "10.0.0.0/8",
        "x".repeat(300),
        "US"
    };

    /** Keys of each section, valid ones first, then typos. */
    private static final Map<String, String[]> SECTIONS = new LinkedHashMap<>();

    static {
        SECTIONS.put("server", new String[] {"host", "gatewayPort", "apiPort", "port"});
        SECTIONS.put("store", new String[] {"type", "uri", "keyPrefix", "url"});
        SECTIONS.put("database", new String[] {"type", "url", "user", "password", "passwordEnv", "pass"});
        SECTIONS.put("credentials", new String[] {"file", "files"});
        SECTIONS.put("admin", new String[] {"token", "tokenEnv", "tokens"});
        SECTIONS.put("pipeline", new String[] {
            "echoUrl",
            "validationConcurrency",
            "validationTimeout",
            "minScore",
            "poolSize",
            "reserveSize",
            "asnDatabase",
            "asnMaxAge",
            "poolsize"
        });
        SECTIONS.put("security", new String[] {
            "allowPrivateDestinations", "connectPorts", "allowDestinations", "allowAnonymous", "connectPort"
        });
        SECTIONS.put("distribution", new String[] {"gatewayReserve", "idempotencyTtl", "maxCount", "max"});
        SECTIONS.put(
                "health",
                new String[] {"probeTimeout", "slowStart", "passive", "active", "cooldown", "domainBan", "bogus"});
    }

    /**
     * One input: a YAML text and the environment it is loaded with.
     *
     * @param secretsInPlace false when mutation may have moved secret text into a non-secret field
     */
    record Input(String yaml, Map<String, String> env, boolean secretsInPlace) {}

    private ConfigTexts() {}

    /** A whole seed now and then; mostly one to three of the big seed's sections (small texts parse fast). */
    private static String seed(SplittableRandom r) {
        if (r.nextInt(8) == 0) {
            return SEEDS[r.nextInt(SEEDS.length)];
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 1 + r.nextInt(3); i > 0; i--) {
            sb.append(SECTION_SEEDS[r.nextInt(SECTION_SEEDS.length)]);
        }
        return sb.toString();
    }

    /** The first seed cut into its top-level sections. */
    private static final String[] SECTION_SEEDS = SEEDS[0].split("(?m)^(?=[a-z])");

    static Input next(SplittableRandom r) {
        boolean mutated = r.nextBoolean();
        String yaml = mutated ? MUTATOR.mutate(seed(r), r) : assembled(r);
        return new Input(yaml, env(r), !mutated);
    }

    /** The variables a config may name, plus random {@code PROXYPOOL_*} overrides of scalars. */
    private static Map<String, String> env(SplittableRandom r) {
        Map<String, String> env = new LinkedHashMap<>();
        if (r.nextBoolean()) {
            env.put("VENDOR_A_TOKEN", CANARY + "-vendor");
            env.put("BOB_SECRET", CANARY + "-bob-secret");
            env.put("BOB_TOKEN", CANARY + "-bob-token-0123456789");
            env.put("PG_PASSWORD", CANARY + "-pg");
        }
        if (r.nextInt(3) == 0) {
            env.put("PROXYPOOL_ADMIN_TOKEN", r.nextBoolean() ? TOKEN : CANARY);
        }
        for (int i = r.nextInt(4); i > 0; i--) {
            String section = pick(r, SECTIONS.keySet().toArray(new String[0]));
            String key = pick(r, SECTIONS.get(section));
            env.put("PROXYPOOL_" + (section + "_" + key).toUpperCase(java.util.Locale.ROOT), scalar(r, key));
        }
        return env;
    }

    private static String assembled(SplittableRandom r) {
        StringBuilder sb = new StringBuilder();
        for (String section : SECTIONS.keySet()) {
            if (r.nextInt(3) != 0) {
                continue;
            }
            sb.append(section).append(":\n");
            for (int i = r.nextInt(4); i > 0; i--) {
                String key = pick(r, SECTIONS.get(section));
                sb.append("  ").append(key).append(": ");
                if (section.equals("health") && !key.equals("probeTimeout") && !key.equals("slowStart")) {
                    sb.append("{ ")
                            .append(pick(r, new String[] {
                                "consecutiveFailures",
                                "errorRate",
                                "window",
                                "enabled",
                                "interval",
                                "targets",
                                "initial",
                                "max",
                                "duration",
                                "maxPerProxy",
                                "x"
                            }))
                            .append(": ")
                            .append(yamlScalar(r, "x"))
                            .append(" }\n");
                } else {
                    sb.append(
                                    r.nextInt(10) == 0
                                            ? pick(r, new String[] {"[1, 2]", "{ a: b }", "[]", "{}", "~", "- x"})
                                            : yamlScalar(r, key))
                            .append('\n');
                }
            }
        }
        if (r.nextBoolean()) {
            sb.append("clients:\n");
            for (int i = r.nextInt(3); i > 0; i--) {
                String field = pick(
                        r,
                        new String[] {"secret", "secretHash", "secretEnv", "token", "tokenEnv", "quota", "rateLimit"});
                sb.append("  - { name: ")
                        .append(yamlScalar(r, "name"))
                        .append(", ")
                        .append(field)
                        .append(": ")
                        .append(
                                field.equals("quota") || field.equals("rateLimit")
                                        ? "{ rps: " + pick(r, DECIMALS) + " }"
                                        : yamlScalar(r, field))
                        .append(" }\n");
            }
        }
        if (r.nextBoolean()) {
            sb.append("providers:\n  - { name: p1, type: ")
                    .append(pick(r, new String[] {"jsonl_inventory", "csv", "nope"}))
                    .append(", path: ")
                    .append(yamlScalar(r, "path"))
                    .append(" }\n");
            sb.append("upstreams:\n  - { name: u1, provider: ")
                    .append(pick(r, new String[] {"p1", "p2", ""}))
                    .append(", fetch: { interval: ")
                    .append(pick(r, DURATIONS))
                    .append(" } }\n");
        }
        if (r.nextBoolean()) {
            sb.append("routings:\n  - name: ")
                    .append(yamlScalar(r, "name"))
                    .append("\n    ")
                    .append(pick(r, new String[] {
                        "strategy",
                        "exhaustion",
                        "onNoCandidate",
                        "hashKey",
                        "waitTimeout",
                        "emptyThreshold",
                        "minRemainingTtl",
                        "upstreams",
                        "sticky",
                        "retry",
                        "filter",
                        "match"
                    }))
                    .append(": ")
                    .append(yamlScalar(r, "x"))
                    .append('\n');
        }
        return sb.toString();
    }

    private static String yamlScalar(SplittableRandom r, String key) {
        String v = scalar(r, key);
        return switch (r.nextInt(3)) {
            case 0 -> "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
            case 1 -> "'" + v.replace("'", "''") + "'";
            default -> v;
        };
    }

    /** A value of the kind the key takes (most of the time), or any other kind. */
    private static String scalar(SplittableRandom r, String key) {
        if (r.nextInt(5) == 0) {
            return pick(r, pick(r, new String[][] {DURATIONS, INTS, DECIMALS, STRINGS}));
        }
        String k = key.toLowerCase(java.util.Locale.ROOT);
        if (k.contains("port")
                || k.contains("size")
                || k.contains("count")
                || k.contains("reserve")
                || k.contains("concurrency")) {
            return pick(r, INTS);
        }
        if (k.contains("timeout")
                || k.contains("ttl")
                || k.contains("age")
                || k.contains("start")
                || k.contains("interval")) {
            return pick(r, DURATIONS);
        }
        if (k.contains("score")) {
            return pick(r, DECIMALS);
        }
        if (k.endsWith("env")) {
            return pick(r, new String[] {"BOB_SECRET", "MISSING_VAR", "", "lower_case", "A B"});
        }
        if (k.equals("secrethash")) {
            return pick(
                    r, new String[] {"pbkdf2-sha256$1000$c2FsdHNhbHRzYWx0$" + "A".repeat(43), "pbkdf2$x", "", "$$$"});
        }
        if (k.contains("token") || k.contains("secret") || k.contains("password")) {
            return CANARY + "-" + pick(r, new String[] {"short", "long-enough-0123456789"});
        }
        return pick(r, STRINGS);
    }

    static <T> T pick(SplittableRandom r, T[] from) {
        return from[r.nextInt(from.length)];
    }
}
