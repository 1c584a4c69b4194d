package dev.proxypool.cli.bench.capacity;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A traffic profile as a small flat YAML file, for example
 *
 * <pre>
 * connect: 0.70
 * http: 0.25
 * socks: 0.05
 * requestsPerConnection: 10
 * requestBytes: 512
 * responseBytes: 4096
 * tunnelDuration: 1s
 * sticky: 0.0
 * rtt: lognormal:200ms,1500ms
 * refuseShare: 0.01
 * resetShare: 0
 * slowShare: 0
 * tls: true
 * auth: true
 * </pre>
 *
 * Keys left out keep their default; a flag given on the command line wins over the file.
 */
public final class ProfileFile {

    public static final Set<String> KEYS = Set.of(
            "connect",
            "http",
            "socks",
            "requestsPerConnection",
            "requestBytes",
            "responseBytes",
            "tunnelDuration",
            "sticky",
            "rtt",
            "refuseShare",
            "resetShare",
            "slowShare",
            "tls",
            "auth");

    private ProfileFile() {}

    /** The file's keys and values, checked against {@link #KEYS}. */
    public static Map<String, String> read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("--profile: " + file + " is not a file");
        }
        Config config = Config.builder()
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .addSource(ConfigSources.file(file).build())
                .build();
        Map<String, String> values = new LinkedHashMap<>();
        for (Config node : config.asNodeList().orElse(List.of())) {
            String key = node.name();
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException(
                        "--profile: unknown key '" + key + "' in " + file + " (known: " + KEYS + ")");
            }
            values.put(
                    key,
                    node.asString()
                            .orElseThrow(() ->
                                    new IllegalArgumentException("--profile: '" + key + "' must be a single value")));
        }
        return values;
    }

    /** Defaults, then {@code overrides} (file values, then flags), into a profile. */
    public static TrafficProfile resolve(Map<String, String> overrides) {
        TrafficProfile d = TrafficProfile.defaults();
        Map<String, String> v = new LinkedHashMap<>(overrides);
        return new TrafficProfile(
                dbl(v, "connect", d.connectShare()),
                dbl(v, "http", d.httpShare()),
                dbl(v, "socks", d.socksShare()),
                (int) dbl(v, "requestsPerConnection", d.requestsPerConnection()),
                (int) dbl(v, "requestBytes", d.requestBytes()),
                (int) dbl(v, "responseBytes", d.responseBytes()),
                v.containsKey("tunnelDuration")
                        ? RttDistribution.duration(v.get("tunnelDuration"), "tunnelDuration")
                        : d.tunnelDuration(),
                dbl(v, "sticky", d.stickyShare()),
                v.containsKey("rtt") ? RttDistribution.parse(v.get("rtt")) : d.rtt(),
                new FailureShares(
                        dbl(v, "refuseShare", d.failures().refuse()),
                        dbl(v, "resetShare", d.failures().reset()),
                        dbl(v, "slowShare", d.failures().slow())),
                bool(v, "tls", d.tls()),
                bool(v, "auth", d.auth()));
    }

    private static double dbl(Map<String, String> v, String key, double dflt) {
        String s = v.get(key);
        if (s == null) {
            return dflt;
        }
        try {
            String t = s.strip();
            return t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1)) / 100 : Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": not a number: '" + s + "'");
        }
    }

    private static boolean bool(Map<String, String> v, String key, boolean dflt) {
        String s = v.get(key);
        if (s == null) {
            return dflt;
        }
        return switch (s.strip()) {
            case "true", "on", "yes" -> true;
            case "false", "off", "no" -> false;
            default -> throw new IllegalArgumentException(key + ": true or false, got '" + s + "'");
        };
    }
}
