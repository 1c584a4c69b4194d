package dev.proxypool.sdk.provider;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The provider types this process can run. Types are registered explicitly in code and then
 * enabled by an allow-list from config; nothing is discovered by scanning the classpath or a
 * directory, so a stray jar or file can never switch on new code that reads network input.
 *
 * <p>Built-in types ({@link #standard}): {@code jsonl_inventory}, {@code http_json_feed},
 * {@code text_list}, {@code csv}, {@code session_gateway}. Immutable and thread-safe.
 */
public final class ProviderRegistry {

    private final Map<String, ProviderFactory> factories;
    private final Set<String> enabled;

    private ProviderRegistry(Map<String, ProviderFactory> factories, Set<String> enabled) {
        this.factories = Collections.unmodifiableMap(new TreeMap<>(factories));
        this.enabled = Collections.unmodifiableSet(new TreeSet<>(enabled));
    }

    /**
     * The built-in types, with only {@code enabledTypes} allowed.
     *
     * @param enabledTypes the types to allow
     * @return the registry
     */
    public static ProviderRegistry standard(Set<String> enabledTypes) {
        return builtIns().enable(enabledTypes).build();
    }

    /**
     * A builder holding the built-in types, none enabled yet.
     *
     * @return the builder
     */
    public static Builder builtIns() {
        return builder()
                .register(JsonlInventoryAdapter.TYPE, JsonlInventoryAdapter::new)
                .register(HttpJsonFeedAdapter.TYPE, HttpJsonFeedAdapter::new)
                .register(TextListAdapter.TYPE, TextListAdapter::new)
                .register(CsvAdapter.TYPE, CsvAdapter::new)
                .register(SessionGatewayAdapter.TYPE, SessionGatewayAdapter::new);
    }

    /**
     * An empty builder: register your own types, then enable some.
     *
     * @return the builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The adapter for {@code config}.
     *
     * @param config the provider's config
     * @param env    the process environment for the adapter
     * @return the adapter
     * @throws IllegalArgumentException naming {@code providers[<name>].type} when the type is unknown
     *                                  or not enabled, or a setting when it is invalid
     */
    public ProviderAdapter create(ProviderConfig config, ProviderEnvironment env) {
        ProviderFactory factory = factories.get(config.type());
        if (factory == null) {
            throw new IllegalArgumentException(config.keyName("type") + ": unknown type '" + config.type()
                    + "' (known: " + String.join(", ", factories.keySet()) + ")");
        }
        if (!enabled.contains(config.type())) {
            throw new IllegalArgumentException(config.keyName("type") + ": type '" + config.type()
                    + "' is not enabled (enabled: " + (enabled.isEmpty() ? "none" : String.join(", ", enabled))
                    + "; known: " + String.join(", ", factories.keySet()) + ")");
        }
        return factory.create(config, env);
    }

    /**
     * Every registered type, enabled or not.
     *
     * @return the types, sorted
     */
    public Set<String> knownTypes() {
        return factories.keySet();
    }

    /**
     * The types a provider may use.
     *
     * @return the types, sorted
     */
    public Set<String> enabledTypes() {
        return enabled;
    }

    /** Collects registrations and the allow-list. Not thread-safe. */
    public static final class Builder {
        private final Map<String, ProviderFactory> factories = new LinkedHashMap<>();
        private final Set<String> enabled = new TreeSet<>();

        private Builder() {}

        /**
         * Registers {@code type}; registering a type twice is a programming error.
         *
         * @param type    the snake_case type name providers name in {@code providers[].type}
         * @param factory creates the adapter
         * @return this builder
         * @throws IllegalArgumentException for a bad or duplicate type, or a missing factory
         */
        public Builder register(String type, ProviderFactory factory) {
            if (type == null || !type.matches("[a-z][a-z0-9_]{0,63}")) {
                throw new IllegalArgumentException("provider type '" + type + "' must be snake_case");
            }
            if (factory == null) {
                throw new IllegalArgumentException("provider type '" + type + "': factory is missing");
            }
            if (factories.putIfAbsent(type, factory) != null) {
                throw new IllegalArgumentException("provider type '" + type + "' is registered twice");
            }
            return this;
        }

        /**
         * Allows {@code types}; each must be registered.
         *
         * @param types registered types
         * @return this builder
         * @throws IllegalArgumentException naming a type that is not registered
         */
        public Builder enable(Set<String> types) {
            for (String t : types) {
                if (!factories.containsKey(t)) {
                    throw new IllegalArgumentException("enabled provider type '" + t + "' is unknown (known: "
                            + String.join(", ", new TreeSet<>(factories.keySet())) + ")");
                }
                enabled.add(t);
            }
            return this;
        }

        /**
         * Allows {@code types}; each must be registered.
         *
         * @param types registered types
         * @return this builder
         * @throws IllegalArgumentException naming a type that is not registered
         */
        public Builder enable(String... types) {
            return enable(Set.of(types));
        }

        /**
         * The registry: the registered types, the enabled ones allowed.
         *
         * @return the registry
         */
        public ProviderRegistry build() {
            return new ProviderRegistry(factories, enabled);
        }
    }
}
