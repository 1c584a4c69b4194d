package dev.proxypool.server.persistence;

import dev.proxypool.sdk.config.ConfigException;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The admin configuration at one version: providers, upstreams and clients (sorted by name) and
 * routings (in match order). Immutable; a write produces the next state, and stores publish it whole.
 *
 * @param version 0 for a configuration nobody changed through the admin API, +1 per admin write
 */
public record ConfigState(
        long version, List<Entity> providers, List<Entity> upstreams, List<Entity> routings, List<Entity> clients) {

    public static final ConfigState EMPTY = new ConfigState(0, List.of(), List.of(), List.of(), List.of());

    public ConfigState {
        if (version < 0) {
            throw new IllegalArgumentException("config version must not be negative, got " + version);
        }
        providers = check(EntityType.PROVIDER, providers);
        upstreams = check(EntityType.UPSTREAM, upstreams);
        routings = check(EntityType.ROUTING, routings);
        clients = check(EntityType.CLIENT, clients);
    }

    /** Providers, upstreams and clients are kept sorted by name; routings keep their order. */
    private static List<Entity> check(EntityType type, List<Entity> list) {
        Set<String> names = new HashSet<>();
        for (Entity e : list) {
            if (e.type() != type) {
                throw new IllegalArgumentException(type.plural() + " holds " + e);
            }
            if (!names.add(e.name())) {
                throw new IllegalArgumentException(type.key(e.name()) + ": defined twice");
            }
        }
        if (type == EntityType.ROUTING) {
            return List.copyOf(list);
        }
        List<Entity> sorted = new ArrayList<>(list);
        sorted.sort(Comparator.comparing(Entity::name));
        return List.copyOf(sorted);
    }

    /** The entities of one type; routings in match order. */
    public List<Entity> of(EntityType type) {
        return switch (type) {
            case PROVIDER -> providers;
            case UPSTREAM -> upstreams;
            case ROUTING -> routings;
            case CLIENT -> clients;
        };
    }

    public Optional<Entity> find(EntityType type, String name) {
        for (Entity e : of(type)) {
            if (e.name().equals(name)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /** Position of the named entity in its list, or -1. */
    public int indexOf(EntityType type, String name) {
        List<Entity> list = of(type);
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** This state with the entities of {@code type} replaced. */
    public ConfigState with(EntityType type, List<Entity> entities) {
        return new ConfigState(
                version,
                type == EntityType.PROVIDER ? entities : providers,
                type == EntityType.UPSTREAM ? entities : upstreams,
                type == EntityType.ROUTING ? entities : routings,
                type == EntityType.CLIENT ? entities : clients);
    }

    public ConfigState withVersion(long v) {
        return new ConfigState(v, providers, upstreams, routings, clients);
    }

    /**
     * Validates the whole configuration with the config file's own reader (same rules, same
     * messages naming the key, e.g. {@code routings[shop].upstreams[0]: names upstream 'x', which
     * is not defined under upstreams}).
     *
     * @return the four sections as typed config (every other section at its defaults)
     * @throws ConfigException when anything is invalid
     */
    public ProxyPoolConfig validate(Path baseDir) {
        return ConfigTree.validate(this, baseDir);
    }

    /**
     * {@code base} with its providers, upstreams, routings and clients replaced by this state's:
     * what a rebuild of the running pool starts from. Clients' bearer tokens are only stored
     * hashed, so their {@code token} is empty here; use {@link #clientForTokenHash} instead.
     */
    public ProxyPoolConfig applyTo(ProxyPoolConfig base, Path baseDir) {
        ProxyPoolConfig c = validate(baseDir);
        return new ProxyPoolConfig(
                base.server(),
                base.store(),
                base.database(),
                base.credentials(),
                base.admin(),
                c.clients(),
                c.providers(),
                c.upstreams(),
                c.routings(),
                base.health(),
                base.pipeline(),
                base.security(),
                base.distribution(),
                base.gateway(),
                base.cluster(),
                base.nodes());
    }

    /** SHA-256 hex of each client's bearer token → client name. */
    public Map<String, String> tokenHashes() {
        Map<String, String> out = new HashMap<>();
        for (Entity c : clients) {
            if (c.doc().get(Entity.TOKEN_HASH) instanceof String h) {
                out.put(h, c.name());
            }
        }
        return Map.copyOf(out);
    }

    /**
     * The client whose token hashes to {@code tokenHash} ({@link ClientDocs#tokenHash}), comparing
     * every stored hash in constant time.
     */
    public Optional<String> clientForTokenHash(String tokenHash) {
        byte[] presented = tokenHash.getBytes(StandardCharsets.US_ASCII);
        String found = null;
        for (Entity c : clients) {
            if (c.doc().get(Entity.TOKEN_HASH) instanceof String h
                    && MessageDigest.isEqual(presented, h.getBytes(StandardCharsets.US_ASCII))
                    && found == null) {
                found = c.name();
            }
        }
        return Optional.ofNullable(found);
    }

    /** Names of the entities of {@code type}, in order. */
    public List<String> names(EntityType type) {
        List<String> out = new ArrayList<>();
        of(type).forEach(e -> out.add(e.name()));
        return out;
    }

    /** The state of a config file: what the embedded store starts from and an empty database is seeded with. */
    public static ConfigState from(ProxyPoolConfig config) {
        return ConfigDocs.state(config);
    }
}
