package dev.proxypool.sdk.config;

import io.helidon.config.Config;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A typed, path-aware view of one config node: every read names its full key in errors
 * ({@code routings[shop].sticky.idle}), unknown keys are refused (a typo must not silently become a
 * default), and scalars outside lists can be overridden by environment variables
 * {@code PROXYPOOL_<KEY>} (upper case, dots as underscores: {@code PROXYPOOL_SERVER_GATEWAYPORT}).
 */
final class Node {

    /** What an unknown key may look like to be shown in an error; anything else is not echoed. */
    private static final Pattern PLAIN_KEY = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final Config config;
    private final String path;
    private final Map<String, String> env;
    private final boolean envOverridable;

    Node(Config config, String path, Map<String, String> env, boolean envOverridable) {
        this.config = config;
        this.path = path;
        this.env = env;
        this.envOverridable = envOverridable;
    }

    String path() {
        return path;
    }

    String key(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    Node child(String name) {
        return new Node(config.get(name), key(name), env, envOverridable);
    }

    boolean exists() {
        return config.exists();
    }

    boolean has(String name) {
        return config.get(name).exists() || envValue(name) != null;
    }

    /** Refuses keys of this object node other than {@code allowed}. */
    Node allowOnly(String... allowed) {
        if (!config.exists()) {
            return this;
        }
        if (!config.isObject()) {
            throw new ConfigException(path.isEmpty() ? "(root)" : path, "must be a mapping of keys to values");
        }
        Set<String> ok = new LinkedHashSet<>(Arrays.asList(allowed));
        for (Config child : config.asNodeList().orElse(List.of())) {
            if (!ok.contains(child.name()) && !PLAIN_KEY.matcher(child.name()).matches()) {
                // an empty key, or a YAML mapping/list used as a key: its text would replay values (secrets too)
                throw new ConfigException(
                        path.isEmpty() ? "(root)" : path,
                        "has an empty key or a key that is not a plain name (known here: " + String.join(", ", ok)
                                + ")");
            }
            if (!ok.contains(child.name())) {
                throw new ConfigException(key(child.name()), "unknown key (known here: " + String.join(", ", ok) + ")");
            }
        }
        return this;
    }

    private String envValue(String name) {
        if (!envOverridable) {
            return null;
        }
        String var = "PROXYPOOL_" + key(name).toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
        return env.get(var);
    }

    private String raw(String name) {
        String fromEnv = envValue(name);
        if (fromEnv != null) {
            return fromEnv;
        }
        Config c = config.get(name);
        if (!c.exists()) {
            return null;
        }
        if (!c.isLeaf()) {
            throw new ConfigException(key(name), "must be a single value, not a list or mapping");
        }
        try {
            return c.asString().get();
        } catch (io.helidon.config.ConfigException e) {
            throw new ConfigException(key(name), "cannot be read: " + e.getMessage(), e);
        }
    }

    /** A scalar from the file only, never from the environment (secrets have their own {@code *Env} keys). */
    String fileString(String name) {
        Config c = config.get(name);
        if (!c.exists()) {
            return "";
        }
        if (!c.isLeaf()) {
            throw new ConfigException(key(name), "must be a single value, not a list or mapping");
        }
        return c.asString().get().trim();
    }

    String string(String name, String def) {
        String v = raw(name);
        return v == null ? def : v.trim();
    }

    String requiredString(String name) {
        String v = raw(name);
        if (v == null || v.isBlank()) {
            throw new ConfigException(key(name), "is required");
        }
        return v.trim();
    }

    int integer(String name, int def, int min, int max) {
        String v = raw(name);
        if (v == null) {
            return def;
        }
        try {
            int i = Integer.parseInt(v.trim());
            if (i < min || i > max) {
                throw new ConfigException(key(name), "must be between " + min + " and " + max + ", got " + i);
            }
            return i;
        } catch (NumberFormatException e) {
            throw new ConfigException(key(name), "'" + v + "' is not a whole number");
        }
    }

    double decimal(String name, double def, double min, double max) {
        String v = raw(name);
        if (v == null) {
            return def;
        }
        try {
            double d = Double.parseDouble(v.trim());
            if (!(d >= min && d <= max)) {
                throw new ConfigException(key(name), "must be between " + min + " and " + max + ", got " + v.trim());
            }
            return d;
        } catch (NumberFormatException e) {
            throw new ConfigException(key(name), "'" + v + "' is not a number");
        }
    }

    boolean bool(String name, boolean def) {
        String v = raw(name);
        if (v == null) {
            return def;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw new ConfigException(key(name), "'" + v + "' is not true or false");
        };
    }

    Duration duration(String name, Duration def) {
        String v = raw(name);
        return v == null ? def : Durations.parse(key(name), v);
    }

    /** A list of scalars; a single scalar is accepted as a one-element list. */
    List<String> strings(String name) {
        String fromEnv = envValue(name);
        if (fromEnv != null) {
            List<String> out = new ArrayList<>();
            for (String s : fromEnv.split(",")) {
                if (!s.isBlank()) {
                    out.add(s.trim());
                }
            }
            return out;
        }
        Config c = config.get(name);
        if (!c.exists()) {
            return List.of();
        }
        if (c.isLeaf()) {
            return List.of(c.asString().get().trim());
        }
        if (!c.isList()) {
            throw new ConfigException(key(name), "must be a list");
        }
        List<String> out = new ArrayList<>();
        List<Config> items = c.asNodeList().orElse(List.of());
        for (int i = 0; i < items.size(); i++) {
            Config item = items.get(i);
            if (!item.isLeaf()) {
                throw new ConfigException(key(name) + "[" + i + "]", "must be a single value");
            }
            out.add(item.asString().get().trim());
        }
        return out;
    }

    /** A mapping of scalar values (labels, params, headers, fields). */
    Map<String, String> map(String name) {
        Config c = config.get(name);
        if (!c.exists()) {
            return Map.of();
        }
        if (!c.isObject()) {
            throw new ConfigException(key(name), "must be a mapping of keys to values");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Config item : c.asNodeList().orElse(List.of())) {
            if (!item.isLeaf()) {
                throw new ConfigException(key(name) + "." + item.name(), "must be a single value");
            }
            out.put(item.name(), item.asString().get().trim());
        }
        return out;
    }

    /** A list of mappings, each named by its {@code name} key in paths: {@code clients[alice]}. */
    List<Node> objects(String name) {
        Config c = config.get(name);
        if (!c.exists()) {
            return List.of();
        }
        if (!c.isList()) {
            throw new ConfigException(key(name), "must be a list of mappings");
        }
        List<Node> out = new ArrayList<>();
        List<Config> items = c.asNodeList().orElse(List.of());
        for (int i = 0; i < items.size(); i++) {
            Config item = items.get(i);
            if (!item.isObject()) {
                throw new ConfigException(key(name) + "[" + i + "]", "must be a mapping");
            }
            Config n = item.get("name");
            String label = n.exists() && n.isLeaf() ? n.asString().get().trim() : String.valueOf(i);
            out.add(new Node(item, key(name) + "[" + label + "]", env, false));
        }
        return out;
    }
}
