package dev.proxypool.server.nodes;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.server.persistence.Database;
import dev.proxypool.server.persistence.JsonTree;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jooq.JSONB;
import org.jooq.Record;

/**
 * {@link NodeStore} in the configuration database's tables {@code node_tokens} and
 * {@code node_members} (migration {@code V2__node_registry.sql}). Shares the configuration store's
 * {@link Database}; {@link #close()} leaves it open.
 */
public final class PostgresNodeStore implements NodeStore {

    private final Database db;

    public PostgresNodeStore(Database db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    @Override
    public List<TokenRow> tokens() {
        return db.read(tx -> tx.fetch("SELECT name, token_digest FROM node_tokens ORDER BY name")
                .map(r -> new TokenRow(r.get("name", String.class), r.get("token_digest", String.class))));
    }

    @Override
    public List<NodeRow> nodes() {
        return db.read(tx -> tx.fetch("SELECT node_id, token_name, protocol, host, port, labels, metadata,"
                        + " max_concurrency, weight, secret_digest, registered_at, last_heartbeat, credential_expires_at"
                        + " FROM node_members ORDER BY node_id")
                .map(PostgresNodeStore::node));
    }

    private static NodeRow node(Record r) {
        NodeAdvert advert = new NodeAdvert(
                r.get("host", String.class),
                r.get("port", Integer.class),
                Protocol.parse(r.get("protocol", String.class)),
                Labels.of(strings(r.get("labels", JSONB.class))),
                r.get("max_concurrency", Integer.class),
                r.get("weight", Integer.class),
                strings(r.get("metadata", JSONB.class)));
        return new NodeRow(
                r.get("node_id", String.class),
                r.get("token_name", String.class),
                advert,
                r.get("secret_digest", byte[].class),
                instant(r, "registered_at"),
                instant(r, "last_heartbeat"),
                instant(r, "credential_expires_at"));
    }

    @Override
    public void saveToken(TokenRow token) {
        db.transaction(tx ->
                tx.execute("INSERT INTO node_tokens (name, token_digest) VALUES (?, ?)", token.name(), token.digest()));
    }

    @Override
    public void deleteToken(String name) {
        db.transaction(tx -> tx.execute("DELETE FROM node_tokens WHERE name = ?", name));
    }

    @Override
    public void saveNode(NodeRow n, String replaces) {
        NodeAdvert a = n.advert();
        db.transaction(tx -> {
            if (replaces != null && !replaces.equals(n.nodeId())) {
                tx.execute("DELETE FROM node_members WHERE node_id = ?", replaces);
            }
            return tx.execute(
                    "INSERT INTO node_members (node_id, token_name, protocol, host, port, labels, metadata,"
                            + " max_concurrency, weight, secret_digest, registered_at, last_heartbeat, credential_expires_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?::timestamptz, ?::timestamptz, ?::timestamptz)"
                            + " ON CONFLICT (node_id) DO UPDATE SET labels = excluded.labels, metadata = excluded.metadata,"
                            + " max_concurrency = excluded.max_concurrency, weight = excluded.weight,"
                            + " last_heartbeat = greatest(node_members.last_heartbeat, excluded.last_heartbeat),"
                            + " credential_expires_at = greatest(node_members.credential_expires_at,"
                            + " excluded.credential_expires_at)",
                    n.nodeId(),
                    n.tokenName(),
                    a.protocol().wireName(),
                    a.host(),
                    a.port(),
                    JsonTree.write(a.labels().values()),
                    JsonTree.write(a.metadata()),
                    a.maxConcurrency(),
                    a.weight(),
                    n.secretDigest(),
                    offset(n.registeredAt()),
                    offset(n.lastHeartbeat()),
                    offset(n.credentialExpiresAt()));
        });
    }

    @Override
    public void deleteNode(String nodeId) {
        db.transaction(tx -> tx.execute("DELETE FROM node_members WHERE node_id = ?", nodeId));
    }

    @Override
    public void heartbeat(String nodeId, Instant lastHeartbeat, Instant credentialExpiresAt) {
        db.transaction(tx -> tx.execute(
                "UPDATE node_members SET last_heartbeat = greatest(last_heartbeat, ?::timestamptz),"
                        + " credential_expires_at = greatest(credential_expires_at, ?::timestamptz) WHERE node_id = ?",
                offset(lastHeartbeat),
                offset(credentialExpiresAt),
                nodeId));
    }

    private static OffsetDateTime offset(Instant i) {
        return i.atOffset(ZoneOffset.UTC);
    }

    private static Instant instant(Record r, String column) {
        return r.get(column, OffsetDateTime.class).toInstant();
    }

    private static Map<String, String> strings(JSONB json) {
        Map<String, String> out = new TreeMap<>();
        if (json != null) {
            JsonTree.parseObject(json.data()).forEach((k, v) -> out.put(k, String.valueOf(v)));
        }
        return out;
    }
}
