package dev.proxypool.server.persistence;

import dev.proxypool.core.security.SecretHash;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which entities of a config file differ from the stored configuration: {@code providers[lab]
 * differs}, {@code upstreams[x] only in the file}, {@code routings[y] only in the database}, plus
 * {@code routings: order differs}. Documents compare as JSON trees (key order and number form do
 * not matter); a client's plain (dev-only) secret is checked against the stored hash, never printed.
 */
public final class ConfigDiff {

    private ConfigDiff() {}

    /**
     * @param file       the config file (for its clients' plain secrets)
     * @param fileState  {@link ConfigState#from} of {@code file}
     * @param stored     the database's configuration
     * @return one item per differing entity, in type order; empty when they agree
     */
    public static List<String> between(ProxyPoolConfig file, ConfigState fileState, ConfigState stored) {
        List<String> out = new ArrayList<>();
        for (EntityType type : EntityType.values()) {
            Map<String, Entity> inDb = new HashMap<>();
            stored.of(type).forEach(e -> inDb.put(e.name(), e));
            for (Entity f : fileState.of(type)) {
                Entity d = inDb.remove(f.name());
                if (d == null) {
                    out.add(type.key(f.name()) + " only in the file");
                } else if (!same(file, f, d)) {
                    out.add(type.key(f.name()) + " differs");
                }
            }
            stored.of(type).stream()
                    .filter(e -> inDb.containsKey(e.name()))
                    .forEach(e -> out.add(type.key(e.name()) + " only in the database"));
        }
        List<String> fileOrder = fileState.names(EntityType.ROUTING);
        List<String> dbOrder = stored.names(EntityType.ROUTING);
        if (fileOrder.size() == dbOrder.size()
                && new HashSet<>(fileOrder).equals(new HashSet<>(dbOrder))
                && !fileOrder.equals(dbOrder)) {
            out.add("routings: order differs");
        }
        return out;
    }

    private static boolean same(ProxyPoolConfig file, Entity f, Entity d) {
        if (f.type() != EntityType.CLIENT) {
            return f.doc().equals(d.doc());
        }
        Map<String, Object> fd = new HashMap<>(f.doc());
        Map<String, Object> dd = new HashMap<>(d.doc());
        Object fh = fd.remove(Entity.SECRET_HASH);
        Object dh = dd.remove(Entity.SECRET_HASH);
        if (!fd.equals(dd)) {
            return false;
        }
        Optional<ProxyPoolConfig.Client> c =
                file.clients().stream().filter(x -> x.name().equals(f.name())).findFirst();
        if (c.isPresent() && c.get().plainSecret().isPresent()) { // hashed with a fresh salt: verify instead
            return dh instanceof String h
                    && SecretHash.verify(c.get().plainSecret().get().revealChars(), h);
        }
        return Objects.equals(fh, dh);
    }
}
