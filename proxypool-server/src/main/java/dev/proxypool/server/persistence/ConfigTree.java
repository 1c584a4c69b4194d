package dev.proxypool.server.persistence;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.config.spi.ConfigNode;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns entity documents into the Helidon config tree a YAML file would give and runs the config
 * file's reader over it: admin writes and {@code proxypool.yaml} share one validator. Absent,
 * {@code null}, empty lists and empty mappings are left out (= the key's default).
 */
final class ConfigTree {

    private ConfigTree() {}

    static ProxyPoolConfig validate(ConfigState state, Path baseDir) {
        ConfigNode.ObjectNode.Builder root = ConfigNode.ObjectNode.builder();
        for (EntityType type : EntityType.values()) {
            List<Entity> entities = state.of(type);
            if (entities.isEmpty()) {
                continue;
            }
            ConfigNode.ListNode.Builder list = ConfigNode.ListNode.builder();
            for (Entity e : entities) {
                list.addObject(object(type == EntityType.CLIENT ? withoutTokenHash(e.doc()) : e.doc()));
            }
            root.addList(type.plural(), list.build());
        }
        Config config = Config.builder()
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .addSource(ConfigSources.create(root.build()))
                .build();
        return ConfigLoader.read(config, baseDir);
    }

    private static Map<String, Object> withoutTokenHash(Map<String, Object> doc) {
        Map<String, Object> m = new LinkedHashMap<>(doc);
        m.remove(Entity.TOKEN_HASH);
        return m;
    }

    private static ConfigNode.ObjectNode object(Map<String, ?> doc) {
        ConfigNode.ObjectNode.Builder b = ConfigNode.ObjectNode.builder();
        doc.forEach((k, v) -> {
            String key = Config.Key.escapeName(k);
            switch (v) {
                case null -> {}
                case Map<?, ?> m -> {
                    if (!m.isEmpty()) {
                        @SuppressWarnings("unchecked")
                        Map<String, ?> sub = (Map<String, ?>) m;
                        b.addObject(key, object(sub));
                    }
                }
                case List<?> l -> {
                    if (!l.isEmpty()) {
                        b.addList(key, list(l));
                    }
                }
                default -> b.addValue(key, scalar(v));
            }
        });
        return b.build();
    }

    private static ConfigNode.ListNode list(List<?> items) {
        ConfigNode.ListNode.Builder b = ConfigNode.ListNode.builder();
        for (Object v : items) {
            switch (v) {
                case null -> b.addValue("");
                case Map<?, ?> m -> {
                    @SuppressWarnings("unchecked")
                    Map<String, ?> sub = (Map<String, ?>) m;
                    b.addObject(object(sub));
                }
                case List<?> l -> b.addList(list(l));
                default -> b.addValue(scalar(v));
            }
        }
        return b.build();
    }

    private static String scalar(Object v) {
        return switch (v) {
            case BigDecimal d -> JsonTree.numberText(d);
            case Double d -> d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString(d.longValue()) : d.toString();
            default -> v.toString();
        };
    }
}
