package dev.proxypool.server.admin;

import dev.proxypool.server.persistence.ConfigChange;
import dev.proxypool.server.persistence.ConfigState;
import dev.proxypool.server.persistence.ConfigStore;
import dev.proxypool.server.persistence.DatabaseUnavailableException;
import dev.proxypool.server.persistence.Entity;
import dev.proxypool.server.persistence.EntityType;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * CRUD of one entity type under {@code /v1/admin/<plural>}:
 *
 * <pre>
 * GET    /v1/admin/routings          200 {"routings": [{..., "position": 0}, ...], "version": 7}
 * POST   /v1/admin/routings          201 the entity (Location: /v1/admin/routings/shop)
 * GET    /v1/admin/routings/{name}   200 the entity
 * PUT    /v1/admin/routings/{name}   200 the entity (whole document replaced; position moves)
 * DELETE /v1/admin/routings/{name}   204
 * </pre>
 * Entities are answered in their public form: clients show {@code hasSecret}/{@code hasToken},
 * never a hash or token; passwords in provider URLs are masked.
 */
final class EntityResource {

    /** Marks an answer from the configuration in force while the database is unreachable. */
    static final Header IN_FORCE = HeaderValues.create("X-ProxyPool-Config", "in-force");

    private final EntityType type;
    private final ConfigStore store;
    private final ConfigEdits edits;
    private final Consumer<ConfigChange> onChange;

    EntityResource(EntityType type, ConfigStore store, ConfigEdits edits, Consumer<ConfigChange> onChange) {
        this.type = type;
        this.store = store;
        this.edits = edits;
        this.onChange = onChange;
    }

    void list(ServerRequest req, ServerResponse res) {
        ConfigState s = inForce(res);
        List<Object> items = new ArrayList<>();
        for (Entity e : s.of(type)) {
            items.add(view(s, e));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put(type.plural(), items);
        body.put("version", s.version());
        AdminJson.send(res, 200, body);
    }

    void get(ServerRequest req, ServerResponse res) {
        String name = name(req);
        ConfigState s = inForce(res);
        Entity e = s.find(type, name).orElseThrow(() -> ConfigEdits.notFound(type, name));
        AdminJson.send(res, 200, view(s, e));
    }

    void create(ServerRequest req, ServerResponse res) {
        ConfigEdits.Draft d = ConfigEdits.draft(type, Optional.empty(), AdminJson.object(req));
        ConfigChange c = store.apply(edits.create(d), AdminIdentity.actor(req));
        onChange.accept(c);
        res.header(HeaderNames.LOCATION, AdminService.PATH + "/" + type.plural() + "/" + d.name());
        AdminJson.send(res, 201, view(c.state(), c.after().orElseThrow()));
    }

    void update(ServerRequest req, ServerResponse res) {
        ConfigEdits.Draft d = ConfigEdits.draft(type, Optional.of(name(req)), AdminJson.object(req));
        ConfigChange c = store.apply(edits.update(d), AdminIdentity.actor(req));
        onChange.accept(c);
        AdminJson.send(res, 200, view(c.state(), c.after().orElseThrow()));
    }

    void delete(ServerRequest req, ServerResponse res) {
        ConfigChange c = store.apply(edits.delete(type, name(req)), AdminIdentity.actor(req));
        onChange.accept(c);
        res.status(204);
        res.send();
    }

    /**
     * The stored configuration, or, while the database cannot be reached, the one this process last read and
     * applied (marked {@code X-ProxyPool-Config: in-force}): a configuration read is not an outage. Before any
     * successful read there is nothing to answer from and the 503 stands.
     */
    private ConfigState inForce(ServerResponse res) {
        try {
            return store.state();
        } catch (DatabaseUnavailableException e) {
            ConfigState known = store.lastKnownState().orElseThrow(() -> e);
            res.header(IN_FORCE);
            return known;
        }
    }

    private static String name(ServerRequest req) {
        return req.path().pathParameters().get("name");
    }

    /** The public document, with its position for a routing. */
    static Map<String, Object> view(ConfigState s, Entity e) {
        Map<String, Object> m = new LinkedHashMap<>(e.publicDoc());
        if (e.type() == EntityType.ROUTING) {
            m.put("position", s.indexOf(EntityType.ROUTING, e.name()));
        }
        return m;
    }
}
