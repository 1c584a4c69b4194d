package dev.proxypool.server.admin;

import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.sdk.config.ConfigException;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.server.persistence.ChangeKind;
import dev.proxypool.server.persistence.ClientDocs;
import dev.proxypool.server.persistence.ConfigEdit;
import dev.proxypool.server.persistence.ConfigState;
import dev.proxypool.server.persistence.Entity;
import dev.proxypool.server.persistence.EntityType;
import dev.proxypool.server.persistence.JsonTree;
import dev.proxypool.server.persistence.PendingChange;
import dev.proxypool.server.persistence.SecretUrls;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The admin writes as {@link ConfigEdit}s: the conflict checks ({@code 404}, {@code 409}) and the
 * validation of the whole next configuration by the config file's reader ({@code 400} with its
 * message naming the key), run by the store under its write lock.
 *
 * <p>A body is the entity's YAML block in JSON. Routings may carry {@code position} (0-based index
 * in match order): on create it inserts there (default: appended), on update it moves the routing
 * (default: stays). A name cannot change on update.
 */
final class ConfigEdits {

    private final Path baseDir;

    ConfigEdits(Path baseDir) {
        this.baseDir = baseDir;
    }

    /**
     * Fields an entity's answer carries that are not part of its document: accepted and ignored in a body, so
     * what a GET answered can be PUT back as it is (a client's secret and token change only through
     * {@code secret}/{@code secretHash}/{@code token}). A routing's {@code position} is read-only in this sense
     * too but writable: it moves the routing.
     */
    static final Map<EntityType, Set<String>> READ_ONLY = Map.of(EntityType.CLIENT, Set.of("hasSecret", "hasToken"));

    /** A parsed create/update body. {@code client} is set for clients only. */
    record Draft(EntityType type, String name, Map<String, Object> doc, ClientInput client, OptionalInt position) {}

    /**
     * @param pathName the name in the URL for an update, empty for a create
     */
    static Draft draft(EntityType type, Optional<String> pathName, Map<String, Object> body) {
        Object bodyName = body.get("name");
        String name;
        if (pathName.isPresent()) {
            name = pathName.get();
            if (bodyName != null && !name.equals(bodyName)) {
                throw AdminException.invalid(type.key(name) + ".name: cannot be changed (got '" + bodyName
                        + "'); create the new " + type.singular() + " and delete this one");
            }
        } else {
            if (!(bodyName instanceof String s) || s.isBlank()) {
                throw AdminException.invalid(type.plural() + "[].name: is required"
                        + (bodyName == null
                                ? ""
                                : bodyName instanceof String
                                        ? " (got an empty name)"
                                        : " as a string, got " + JsonTree.typeName(bodyName)));
            }
            name = s.strip();
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("name", name);
        Set<String> readOnly = READ_ONLY.getOrDefault(type, Set.of());
        body.forEach((k, v) -> {
            if (!k.equals("name") && !k.equals("position") && !readOnly.contains(k)) {
                doc.put(k, v);
            }
        });
        OptionalInt position = OptionalInt.empty();
        if (body.containsKey("position") && body.get("position") != null) {
            if (type != EntityType.ROUTING) {
                throw AdminException.invalid(type.key(name) + ".position: only routings have a position");
            }
            position = OptionalInt.of(wholeNumber(type.key(name) + ".position", body.get("position")));
        }
        ClientInput client = type == EntityType.CLIENT ? ClientInput.from(name, doc) : null;
        return new Draft(type, name, doc, client, position);
    }

    private static int wholeNumber(String key, Object v) {
        if (v instanceof BigDecimal d) {
            try {
                return d.intValueExact();
            } catch (ArithmeticException e) {
                // fall through
            }
        }
        throw AdminException.invalid(
                key + ": must be a whole number, got " + (v instanceof BigDecimal d ? d : JsonTree.typeName(v)));
    }

    ConfigEdit create(Draft d) {
        EntityType t = d.type();
        return current -> {
            if (current.find(t, d.name()).isPresent()) {
                throw AdminException.conflict(t.singular() + " '" + d.name() + "' already exists");
            }
            List<Entity> list = new ArrayList<>(current.of(t));
            int at = d.position().orElse(list.size());
            checkPosition(d, at, list.size());
            list.add(at, entity(d, Optional.empty()));
            return new PendingChange(
                    ChangeKind.CREATE, t, d.name(), validated(current.with(t, list), d, Optional.empty()));
        };
    }

    ConfigEdit update(Draft d) {
        EntityType t = d.type();
        return current -> {
            Entity old = current.find(t, d.name()).orElseThrow(() -> notFound(t, d.name()));
            List<Entity> list = new ArrayList<>(current.of(t));
            int index = current.indexOf(t, d.name());
            list.remove(index);
            int at = d.position().orElse(index);
            checkPosition(d, at, list.size());
            list.add(at, entity(d, Optional.of(old)));
            return new PendingChange(
                    ChangeKind.UPDATE, t, d.name(), validated(current.with(t, list), d, Optional.of(old)));
        };
    }

    ConfigEdit delete(EntityType t, String name) {
        return current -> {
            current.find(t, name).orElseThrow(() -> notFound(t, name));
            List<String> users = users(current, t, name);
            if (!users.isEmpty()) {
                throw AdminException.conflict(
                        switch (t) {
                            case PROVIDER ->
                                "provider '" + name + "' is used by upstream" + quoted(users) + "; change or delete "
                                        + (users.size() == 1 ? "that upstream" : "those upstreams") + " first";
                            case UPSTREAM ->
                                "upstream '" + name + "' is used by routing" + quoted(users) + "; remove it from "
                                        + (users.size() == 1 ? "that routing" : "those routings") + " first";
                            case CLIENT ->
                                "client '" + name + "' is named by routing" + quoted(users)
                                        + " (match.clients); remove it there first";
                            case ROUTING -> "routing '" + name + "' is in use";
                        });
            }
            List<Entity> list = new ArrayList<>(current.of(t));
            list.remove(current.indexOf(t, name));
            ConfigState next = current.with(t, list);
            try {
                next.validate(baseDir);
            } catch (ConfigException e) {
                throw AdminException.conflict("deleting " + t.singular() + " '" + name
                        + "' would leave an invalid configuration: " + e.getMessage());
            }
            return new PendingChange(ChangeKind.DELETE, t, name, next);
        };
    }

    /** Names of the entities that refer to {@code name}, from the typed current configuration. */
    private List<String> users(ConfigState current, EntityType t, String name) {
        ProxyPoolConfig c = current.validate(baseDir);
        List<String> out = new ArrayList<>();
        switch (t) {
            case PROVIDER ->
                c.upstreams().stream().filter(u -> u.provider().equals(name)).forEach(u -> out.add(u.name()));
            case UPSTREAM ->
                c.routings().stream()
                        .filter(r -> r.upstreams().contains(name))
                        .map(RoutingRule::name)
                        .forEach(out::add);
            case CLIENT ->
                c.routings().stream()
                        .filter(r -> r.match().clients().contains(name))
                        .map(RoutingRule::name)
                        .forEach(out::add);
            case ROUTING -> {}
        }
        return out;
    }

    private static String quoted(List<String> names) {
        return (names.size() == 1 ? " '" : "s '") + String.join("', '", names) + "'";
    }

    private static void checkPosition(Draft d, int at, int max) {
        if (at < 0 || at > max) {
            throw AdminException.invalid(
                    d.type().key(d.name()) + ".position: must be between 0 and " + max + ", got " + at);
        }
    }

    private static Entity entity(Draft d, Optional<Entity> existing) {
        Map<String, Object> doc = d.client() != null ? d.client().docFor(existing) : d.doc();
        if (d.type() == EntityType.PROVIDER && doc.get("url") instanceof String url && url.contains(SecretUrls.MASK)) {
            // a provider URL as answered (masked): its secrets stay those of the stored URL
            String stored = existing.map(e -> e.doc().get("url") instanceof String s ? s : null)
                    .orElse(null);
            doc = new LinkedHashMap<>(doc);
            try {
                doc.put("url", SecretUrls.unmask(url, stored));
            } catch (IllegalArgumentException e) {
                throw AdminException.invalid(d.type().key(d.name()) + ".url: " + e.getMessage());
            }
        }
        return new Entity(d.type(), d.name(), doc);
    }

    /**
     * Validates {@code next} with the config reader; a client's document is then replaced by its
     * canonical stored form (typed quota and rate, the token hash) and its token checked unique.
     */
    private ConfigState validated(ConfigState next, Draft d, Optional<Entity> existing) {
        ProxyPoolConfig c;
        try {
            c = next.validate(baseDir);
        } catch (ConfigException e) {
            throw AdminException.invalid(e.getMessage());
        }
        if (d.type() != EntityType.CLIENT) {
            return next;
        }
        ProxyPoolConfig.Client typed = c.clients().stream()
                .filter(x -> x.name().equals(d.name()))
                .findFirst()
                .orElseThrow();
        Optional<String> tokenHash = d.client().tokenHashFor(existing);
        if (tokenHash.isPresent()) {
            for (Entity other : next.clients()) {
                if (!other.name().equals(d.name())
                        && tokenHash.get().equals(other.doc().get(Entity.TOKEN_HASH))) {
                    throw AdminException.conflict(EntityType.CLIENT.key(d.name())
                            + ".token: another client already has this token; tokens must be unique");
                }
            }
        }
        Entity canonical = new Entity(
                EntityType.CLIENT,
                d.name(),
                ClientDocs.doc(d.name(), typed.secretHash(), tokenHash, typed.extractionsPerHour(), typed.rps()));
        List<Entity> clients = new ArrayList<>(next.clients());
        clients.set(next.indexOf(EntityType.CLIENT, d.name()), canonical);
        return next.with(EntityType.CLIENT, clients);
    }

    static AdminException notFound(EntityType t, String name) {
        return AdminException.notFound("no " + t.singular() + " named '" + name + "'");
    }
}
