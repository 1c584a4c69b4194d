package dev.proxypool.server.persistence;

import static dev.proxypool.server.persistence.Tables.*;

import dev.proxypool.core.sequential.SequentialState;
import dev.proxypool.core.sequential.SwitchReason;
import java.math.BigDecimal;
import java.time.InstantSource;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.jooq.DSLContext;
import org.jooq.JSONB;
import org.jooq.Record2;
import org.jooq.Record8;
import org.jooq.Result;
import org.jooq.impl.DSL;

/**
 * The {@link ConfigStore} on PostgreSQL (jOOQ plain-SQL DSL over a HikariCP pool).
 *
 * <p><b>One transaction per write.</b> {@link #apply} locks the single {@code config_version} row
 * ({@code SELECT ... FOR UPDATE}: writers queue, across processes too), loads the configuration,
 * runs the edit, writes the changed rows, the audit row and the bumped version, then commits. Any
 * failure (the edit's, a constraint's, the audit insert's) rolls everything back. Loading the whole
 * configuration per write is fine: it is a few hundred rows at most and writes are rare.
 *
 * <p>Construction touches no database; {@link #open} migrates first. When the database is down every
 * method throws {@link DatabaseUnavailableException} within the pool's connection timeout.
 */
public final class PostgresConfigStore implements ConfigStore {

    private final Database db;
    private final InstantSource clock;
    private final boolean ownsDatabase;
    /** The configuration last read or written: what admin reads answer while the database is unreachable. */
    private volatile ConfigState lastKnown;

    /** A store over {@code db} (already migrated, or to be migrated by the caller); {@link #close()} leaves it open. */
    public PostgresConfigStore(Database db, InstantSource clock) {
        this(db, clock, false);
    }

    private PostgresConfigStore(Database db, InstantSource clock, boolean ownsDatabase) {
        this.db = Objects.requireNonNull(db, "db");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ownsDatabase = ownsDatabase;
    }

    /**
     * Opens a pool, applies the migrations and returns a store that closes the pool with itself.
     *
     * @throws MigrationException          when the schema cannot be brought up to date
     * @throws DatabaseUnavailableException when the database cannot be reached
     */
    public static PostgresConfigStore open(DatabaseSettings settings, InstantSource clock) {
        Database db = Database.open(settings);
        try {
            Migrator.classpath().migrate(db.dataSource());
            return new PostgresConfigStore(db, clock, true);
        } catch (DatabaseUnavailableException e) {
            db.close();
            throw db.withAddress(e);
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
    }

    public Database database() {
        return db;
    }

    /**
     * Stores {@code seed} (a config file's entities) when the configuration was never written,
     * i.e. its version is still 0 and every table is empty; one audit row {@code config.seed}.
     *
     * @return whether it seeded
     */
    public boolean seedIfEmpty(ConfigState seed, String actor) {
        return db.transaction(tx -> {
            long version = lockVersion(tx);
            ConfigState current = load(tx, version);
            boolean empty = version == 0
                    && current.providers().isEmpty()
                    && current.upstreams().isEmpty()
                    && current.routings().isEmpty()
                    && current.clients().isEmpty();
            if (!empty) {
                return false;
            }
            for (EntityType t : EntityType.values()) {
                List<Entity> list = seed.of(t);
                for (int i = 0; i < list.size(); i++) {
                    insert(tx, list.get(i), i);
                }
            }
            insertAudit(
                    tx,
                    AuditRecord.of(
                            actor,
                            "config.seed",
                            "config",
                            "proxypool.yaml",
                            null,
                            Map.of(
                                    "providers",
                                    seed.names(EntityType.PROVIDER),
                                    "upstreams",
                                    seed.names(EntityType.UPSTREAM),
                                    "routings",
                                    seed.names(EntityType.ROUTING),
                                    "clients",
                                    seed.names(EntityType.CLIENT))));
            bumpVersion(tx);
            return true;
        });
    }

    /**
     * Replaces the whole stored configuration by {@code file} (a config file's entities; {@code
     * proxypool serve --import-config}): every provider, upstream, routing and client row is
     * rewritten, with one audit row {@code config.import} naming what was there before and what is
     * now, and the next version, in one transaction. Sequential states and the audit log stay.
     *
     * @return the new version
     */
    public long importState(ConfigState file, String actor) {
        return db.transaction(tx -> {
            long version = lockVersion(tx);
            ConfigState before = load(tx, version);
            EntityType[] types = EntityType.values();
            for (int i = types.length - 1; i >= 0; i--) { // dependents first (upstreams name providers)
                tx.deleteFrom(of(types[i])).execute();
            }
            for (EntityType t : types) {
                List<Entity> list = file.of(t);
                for (int i = 0; i < list.size(); i++) {
                    insert(tx, list.get(i), i);
                }
            }
            insertAudit(
                    tx,
                    AuditRecord.of(
                            actor,
                            "config.import",
                            "config",
                            "proxypool.yaml",
                            Map.of(
                                    "providers",
                                    before.names(EntityType.PROVIDER),
                                    "upstreams",
                                    before.names(EntityType.UPSTREAM),
                                    "routings",
                                    before.names(EntityType.ROUTING),
                                    "clients",
                                    before.names(EntityType.CLIENT)),
                            Map.of(
                                    "providers",
                                    file.names(EntityType.PROVIDER),
                                    "upstreams",
                                    file.names(EntityType.UPSTREAM),
                                    "routings",
                                    file.names(EntityType.ROUTING),
                                    "clients",
                                    file.names(EntityType.CLIENT))));
            return bumpVersion(tx);
        });
    }

    @Override
    public ConfigState state() {
        ConfigState s = db.transaction(tx -> load(
                tx,
                tx.select(VERSION)
                        .from(CONFIG_VERSION)
                        .where(ID_SMALL.eq((short) 1))
                        .fetchSingle(VERSION)));
        lastKnown = s;
        return s;
    }

    @Override
    public Optional<ConfigState> lastKnownState() {
        return Optional.ofNullable(lastKnown);
    }

    @Override
    public ConfigChange apply(ConfigEdit edit, String actor) {
        ConfigChange applied = db.transaction(tx -> {
            long version = lockVersion(tx);
            ConfigState current = load(tx, version);
            PendingChange change = edit.apply(current);
            ConfigState next = change.next().withVersion(version + 1);
            PendingChange versioned = new PendingChange(change.kind(), change.type(), change.name(), next);
            write(tx, current, versioned);
            long auditId = insertAudit(tx, AuditRecord.of(actor, current, versioned));
            long stored = bumpVersion(tx);
            if (stored != next.version()) {
                throw new IllegalStateException(
                        "config version moved under the lock: " + stored + " != " + next.version());
            }
            return new ConfigChange(
                    next.version(),
                    change.kind(),
                    change.type(),
                    change.name(),
                    current.find(change.type(), change.name()),
                    next.find(change.type(), change.name()),
                    next,
                    auditId);
        });
        lastKnown = applied.state();
        return applied;
    }

    @Override
    public AuditEntry audit(AuditRecord record) {
        return db.transaction(tx -> {
            long id = insertAudit(tx, record);
            return tx.select(ID, AT, ACTOR, ACTION, ENTITY_TYPE, ENTITY_NAME, BEFORE, AFTER)
                    .from(AUDIT_LOG)
                    .where(ID.eq(id))
                    .fetchSingle(PostgresConfigStore::auditEntry);
        });
    }

    @Override
    public void saveSequential(SequentialState s, AuditRecord record) {
        db.transaction(tx -> {
            upsertSequential(tx, s);
            insertAudit(tx, record);
            return null;
        });
    }

    @Override
    public void saveSequential(List<SequentialState> states) {
        if (states.isEmpty()) {
            return;
        }
        db.transaction(tx -> {
            states.forEach(s -> upsertSequential(tx, s));
            return null;
        });
    }

    @Override
    public List<SequentialState> sequentialStates() {
        return db.read(tx -> tx.select(
                        ROUTING, IDX, UPSTREAM, EXHAUSTED, CONSECUTIVE_EMPTY, VERSION, REASON, CHANGED_AT)
                .from(SEQUENTIAL_STATE)
                .orderBy(ROUTING)
                .fetch(r -> new SequentialState(
                        r.value1(),
                        r.value2(),
                        r.value3(),
                        r.value4(),
                        r.value5(),
                        r.value6(),
                        SwitchReason.parse(r.value7()),
                        r.value8().toInstant())));
    }

    @Override
    public AuditPage auditLog(int limit, String cursor) {
        AuditPage.checkLimit(limit);
        OptionalLong before = AuditPage.decode(cursor);
        List<AuditEntry> rows = db.read(tx -> tx.select(ID, AT, ACTOR, ACTION, ENTITY_TYPE, ENTITY_NAME, BEFORE, AFTER)
                .from(AUDIT_LOG)
                .where(before.isPresent() ? ID.lt(before.getAsLong()) : DSL.noCondition())
                .orderBy(ID.desc())
                .limit(limit + 1)
                .fetch(PostgresConfigStore::auditEntry));
        if (rows.size() > limit) {
            List<AuditEntry> page = rows.subList(0, limit);
            return new AuditPage(page, AuditPage.cursorAfter(page.getLast().id()));
        }
        return new AuditPage(rows, "");
    }

    @Override
    public List<StoredOperator> operators() {
        return db.read(tx -> tx.fetch(
                        "SELECT name, role, token_digest, created_at, created_by FROM operators ORDER BY name")
                .map(r -> new StoredOperator(
                        r.get("name", String.class),
                        r.get("role", String.class),
                        r.get("token_digest", String.class),
                        r.get("created_at", OffsetDateTime.class).toInstant(),
                        r.get("created_by", String.class))));
    }

    @Override
    public boolean createOperator(StoredOperator o, AuditRecord record) {
        return db.transaction(tx -> {
            int n = tx.execute(
                    "INSERT INTO operators (name, role, token_digest, created_at, created_by)"
                            + " VALUES (?, ?, ?, ?::timestamptz, ?) ON CONFLICT (name) DO NOTHING",
                    o.name(),
                    o.role(),
                    o.tokenDigest(),
                    OffsetDateTime.ofInstant(o.createdAt(), ZoneOffset.UTC),
                    o.createdBy());
            if (n == 0) {
                return false;
            }
            insertAudit(tx, record);
            return true;
        });
    }

    @Override
    public boolean deleteOperator(String name, AuditRecord record) {
        return db.transaction(tx -> {
            if (tx.execute("DELETE FROM operators WHERE name = ?", name) == 0) {
                return false;
            }
            insertAudit(tx, record);
            return true;
        });
    }

    @Override
    public void close() {
        if (ownsDatabase) {
            db.close();
        }
    }

    // ---- rows -----------------------------------------------------------------------------------

    private static long lockVersion(DSLContext tx) {
        return tx.select(VERSION)
                .from(CONFIG_VERSION)
                .where(ID_SMALL.eq((short) 1))
                .forUpdate()
                .fetchSingle(VERSION);
    }

    private static long bumpVersion(DSLContext tx) {
        return tx.update(CONFIG_VERSION)
                .set(VERSION, VERSION.plus(1L))
                .set(CHANGED_AT, DSL.currentOffsetDateTime())
                .where(ID_SMALL.eq((short) 1))
                .returningResult(VERSION)
                .fetchSingle()
                .value1();
    }

    private static ConfigState load(DSLContext tx, long version) {
        List<Entity> providers = docs(
                tx,
                EntityType.PROVIDER,
                tx.select(NAME, DOC).from(PROVIDERS).orderBy(NAME).fetch());
        List<Entity> upstreams = docs(
                tx,
                EntityType.UPSTREAM,
                tx.select(NAME, DOC).from(UPSTREAMS).orderBy(NAME).fetch());
        List<Entity> routings = docs(
                tx,
                EntityType.ROUTING,
                tx.select(NAME, DOC).from(ROUTINGS).orderBy(POSITION).fetch());
        List<Entity> clients = tx.select(NAME, SECRET_HASH, TOKEN_HASH, EXTRACTIONS_PER_HOUR, RPS)
                .from(CLIENTS)
                .orderBy(NAME)
                .fetch(r -> new Entity(
                        EntityType.CLIENT,
                        r.value1(),
                        ClientDocs.doc(
                                r.value1(),
                                Optional.ofNullable(r.value2()),
                                Optional.ofNullable(r.value3()),
                                r.value4(),
                                r.value5())));
        return new ConfigState(version, providers, upstreams, routings, clients);
    }

    private static List<Entity> docs(DSLContext tx, EntityType type, Result<? extends Record2<String, JSONB>> rows) {
        List<Entity> out = new ArrayList<>(rows.size());
        for (var r : rows) {
            out.add(new Entity(type, r.value1(), JsonTree.parseObject(r.value2().data())));
        }
        return out;
    }

    /** Writes the difference between {@code current} and the change's next state. */
    private static void write(DSLContext tx, ConfigState current, PendingChange change) {
        EntityType t = change.type();
        ConfigState next = change.next();
        switch (change.kind()) {
            case CREATE -> insert(tx, next.find(t, change.name()).orElseThrow(), next.indexOf(t, change.name()));
            case UPDATE -> update(tx, next.find(t, change.name()).orElseThrow());
            case DELETE -> tx.deleteFrom(of(t)).where(NAME.eq(change.name())).execute();
        }
        if (t == EntityType.ROUTING) {
            List<Entity> routings = next.routings();
            for (int i = 0; i < routings.size(); i++) {
                String name = routings.get(i).name();
                if (current.indexOf(t, name) != i
                        && !(change.kind() == ChangeKind.CREATE && name.equals(change.name()))) {
                    tx.update(ROUTINGS).set(POSITION, i).where(NAME.eq(name)).execute();
                }
            }
        }
    }

    private static void insert(DSLContext tx, Entity e, int position) {
        switch (e.type()) {
            case PROVIDER ->
                tx.insertInto(PROVIDERS, NAME, PROVIDER_TYPE, DOC)
                        .values(e.name(), string(e, "type"), jsonb(e))
                        .execute();
            case UPSTREAM ->
                tx.insertInto(UPSTREAMS, NAME, UPSTREAM_PROVIDER, DOC)
                        .values(e.name(), string(e, "provider"), jsonb(e))
                        .execute();
            case ROUTING ->
                tx.insertInto(ROUTINGS, NAME, POSITION, DOC)
                        .values(e.name(), position, jsonb(e))
                        .execute();
            case CLIENT ->
                tx.insertInto(CLIENTS, NAME, SECRET_HASH, TOKEN_HASH, EXTRACTIONS_PER_HOUR, RPS)
                        .values(
                                e.name(),
                                optional(e, Entity.SECRET_HASH),
                                optional(e, Entity.TOKEN_HASH),
                                (int) number(e, "quota", "extractionsPerHour"),
                                number(e, "rateLimit", "rps"))
                        .execute();
        }
    }

    private static void update(DSLContext tx, Entity e) {
        int n = switch (e.type()) {
            case PROVIDER ->
                tx.update(PROVIDERS)
                        .set(PROVIDER_TYPE, string(e, "type"))
                        .set(DOC, jsonb(e))
                        .set(UPDATED_AT, DSL.currentOffsetDateTime())
                        .where(NAME.eq(e.name()))
                        .execute();
            case UPSTREAM ->
                tx.update(UPSTREAMS)
                        .set(UPSTREAM_PROVIDER, string(e, "provider"))
                        .set(DOC, jsonb(e))
                        .set(UPDATED_AT, DSL.currentOffsetDateTime())
                        .where(NAME.eq(e.name()))
                        .execute();
            case ROUTING ->
                tx.update(ROUTINGS)
                        .set(DOC, jsonb(e))
                        .set(UPDATED_AT, DSL.currentOffsetDateTime())
                        .where(NAME.eq(e.name()))
                        .execute();
            case CLIENT ->
                tx.update(CLIENTS)
                        .set(SECRET_HASH, optional(e, Entity.SECRET_HASH))
                        .set(TOKEN_HASH, optional(e, Entity.TOKEN_HASH))
                        .set(EXTRACTIONS_PER_HOUR, (int) number(e, "quota", "extractionsPerHour"))
                        .set(RPS, number(e, "rateLimit", "rps"))
                        .set(UPDATED_AT, DSL.currentOffsetDateTime())
                        .where(NAME.eq(e.name()))
                        .execute();
        };
        if (n != 1) {
            throw new IllegalStateException(e + " was not found to update");
        }
    }

    private long insertAudit(DSLContext tx, AuditRecord r) {
        return tx.insertInto(AUDIT_LOG, AT, ACTOR, ACTION, ENTITY_TYPE, ENTITY_NAME, BEFORE, AFTER)
                .values(
                        OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC),
                        r.actor(),
                        r.action(),
                        r.entityType(),
                        r.entityName(),
                        r.before().map(b -> JSONB.valueOf(JsonTree.write(b))).orElse(null),
                        r.after().map(a -> JSONB.valueOf(JsonTree.write(a))).orElse(null))
                .returningResult(ID)
                .fetchSingle()
                .value1();
    }

    private static void upsertSequential(DSLContext tx, SequentialState s) {
        tx.insertInto(
                        SEQUENTIAL_STATE,
                        ROUTING,
                        IDX,
                        UPSTREAM,
                        EXHAUSTED,
                        CONSECUTIVE_EMPTY,
                        VERSION,
                        REASON,
                        CHANGED_AT)
                .values(
                        s.routing(),
                        s.index(),
                        s.upstream(),
                        s.exhausted(),
                        s.consecutiveEmpty(),
                        s.version(),
                        s.reason().label(),
                        OffsetDateTime.ofInstant(s.changedAt(), ZoneOffset.UTC))
                .onConflict(ROUTING)
                .doUpdate()
                .set(IDX, s.index())
                .set(UPSTREAM, s.upstream())
                .set(EXHAUSTED, s.exhausted())
                .set(CONSECUTIVE_EMPTY, s.consecutiveEmpty())
                .set(VERSION, s.version())
                .set(REASON, s.reason().label())
                .set(CHANGED_AT, OffsetDateTime.ofInstant(s.changedAt(), ZoneOffset.UTC))
                .execute();
    }

    private static AuditEntry auditEntry(
            Record8<Long, OffsetDateTime, String, String, String, String, JSONB, JSONB> r) {
        return new AuditEntry(
                r.value1(),
                r.value2().toInstant(),
                r.value3(),
                r.value4(),
                r.value5(),
                r.value6(),
                Optional.ofNullable(r.value7()).map(JSONB::data),
                Optional.ofNullable(r.value8()).map(JSONB::data));
    }

    private static JSONB jsonb(Entity e) {
        return JSONB.valueOf(JsonTree.write(e.doc()));
    }

    private static String string(Entity e, String key) {
        if (!(e.doc().get(key) instanceof String s)) {
            throw new IllegalArgumentException(e + "." + key + ": must be a string");
        }
        return s;
    }

    private static String optional(Entity e, String key) {
        return e.doc().get(key) instanceof String s ? s : null;
    }

    private static double number(Entity e, String block, String key) {
        if (e.doc().get(block) instanceof Map<?, ?> m && m.get(key) instanceof Number n) {
            return n instanceof BigDecimal d ? d.doubleValue() : n.doubleValue();
        }
        return 0;
    }
}
