package dev.proxypool.server.persistence;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import java.time.OffsetDateTime;
import org.jooq.Field;
import org.jooq.JSONB;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.SQLDataType;

/** Tables and columns of {@code V1__init.sql} for jOOQ's DSL (no code generation: names typed once here). */
final class Tables {

    private Tables() {}

    static final Field<String> NAME = field(name("name"), SQLDataType.CLOB);
    static final Field<JSONB> DOC = field(name("doc"), SQLDataType.JSONB);
    static final Field<OffsetDateTime> UPDATED_AT = field(name("updated_at"), SQLDataType.TIMESTAMPWITHTIMEZONE);

    static final Table<Record> PROVIDERS = table(name("providers"));
    static final Field<String> PROVIDER_TYPE = field(name("type"), SQLDataType.CLOB);

    static final Table<Record> UPSTREAMS = table(name("upstreams"));
    static final Field<String> UPSTREAM_PROVIDER = field(name("provider"), SQLDataType.CLOB);

    static final Table<Record> ROUTINGS = table(name("routings"));
    static final Field<Integer> POSITION = field(name("position"), SQLDataType.INTEGER);

    static final Table<Record> CLIENTS = table(name("clients"));
    static final Field<String> SECRET_HASH = field(name("secret_hash"), SQLDataType.CLOB);
    static final Field<String> TOKEN_HASH = field(name("token_hash"), SQLDataType.CLOB);
    static final Field<Integer> EXTRACTIONS_PER_HOUR = field(name("extractions_per_hour"), SQLDataType.INTEGER);
    static final Field<Double> RPS = field(name("rps"), SQLDataType.DOUBLE);

    static final Table<Record> CONFIG_VERSION = table(name("config_version"));
    static final Field<Short> ID_SMALL = field(name("id"), SQLDataType.SMALLINT);
    static final Field<Long> VERSION = field(name("version"), SQLDataType.BIGINT);
    static final Field<OffsetDateTime> CHANGED_AT = field(name("changed_at"), SQLDataType.TIMESTAMPWITHTIMEZONE);

    static final Table<Record> AUDIT_LOG = table(name("audit_log"));
    static final Field<Long> ID = field(name("id"), SQLDataType.BIGINT);
    static final Field<OffsetDateTime> AT = field(name("at"), SQLDataType.TIMESTAMPWITHTIMEZONE);
    static final Field<String> ACTOR = field(name("actor"), SQLDataType.CLOB);
    static final Field<String> ACTION = field(name("action"), SQLDataType.CLOB);
    static final Field<String> ENTITY_TYPE = field(name("entity_type"), SQLDataType.CLOB);
    static final Field<String> ENTITY_NAME = field(name("entity_name"), SQLDataType.CLOB);
    static final Field<JSONB> BEFORE = field(name("before"), SQLDataType.JSONB);
    static final Field<JSONB> AFTER = field(name("after"), SQLDataType.JSONB);

    static final Table<Record> SEQUENTIAL_STATE = table(name("sequential_state"));
    static final Field<String> ROUTING = field(name("routing"), SQLDataType.CLOB);
    static final Field<Integer> IDX = field(name("idx"), SQLDataType.INTEGER);
    static final Field<String> UPSTREAM = field(name("upstream"), SQLDataType.CLOB);
    static final Field<Boolean> EXHAUSTED = field(name("exhausted"), SQLDataType.BOOLEAN);
    static final Field<Integer> CONSECUTIVE_EMPTY = field(name("consecutive_empty"), SQLDataType.INTEGER);
    static final Field<String> REASON = field(name("reason"), SQLDataType.CLOB);

    static Table<Record> of(EntityType t) {
        return switch (t) {
            case PROVIDER -> PROVIDERS;
            case UPSTREAM -> UPSTREAMS;
            case ROUTING -> ROUTINGS;
            case CLIENT -> CLIENTS;
        };
    }
}
