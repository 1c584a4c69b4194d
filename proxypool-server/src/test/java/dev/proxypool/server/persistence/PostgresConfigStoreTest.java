package dev.proxypool.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.sequential.SequentialState;
import dev.proxypool.core.sequential.SwitchReason;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PostgreSQL store across restarts: seeding once from the file, state and sequential positions surviving. */
@Tag("slow")
class PostgresConfigStoreTest {

    @TempDir
    Path dir;

    private PgSchema schema;
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    @BeforeEach
    void setUp() {
        schema = PgSchema.create();
    }

    @AfterEach
    void tearDown() {
        schema.close();
    }

    private ProxyPoolConfig config(String yaml) throws Exception {
        Path f = dir.resolve("proxypool.yaml");
        Files.writeString(f, yaml);
        return ConfigLoader.load(f, Map.of());
    }

    @Test
    void anEmptyDatabaseIsSeededOnceFromTheFileThenTheDatabaseWins() throws Exception {
        ProxyPoolConfig first = config("""
                clients: [{ name: alice, token: alice-token-0123456789 }]
                providers: [{ name: lab, type: jsonl_inventory, path: lab.jsonl }]
                upstreams: [{ name: a, provider: lab }, { name: b, provider: lab }]
                routings:
                  - { name: shop, strategy: sequential, upstreams: [a, b] }
                  - { name: default }
                """);
        ConfigState seed = ConfigState.from(first);
        try (PostgresConfigStore store = PostgresConfigStore.open(schema.settings(), clock)) {
            assertTrue(store.seedIfEmpty(seed, ConfigStores.CONFIG_ACTOR));
            ConfigState s = store.state();
            assertEquals(1, s.version());
            assertEquals(seed.withVersion(1), s);
            assertEquals(first.routings(), s.validate(dir).routings());
            AuditEntry row = store.auditLog(10, "").entries().getFirst();
            assertEquals("config.seed", row.action());
            assertEquals("config", row.actor());
            assertFalse(
                    row.after().orElseThrow().contains("alice-token"),
                    row.after().orElseThrow());
        }
        ProxyPoolConfig changedFile = config("providers: [{ name: other, type: jsonl_inventory, path: o.jsonl }]\n");
        try (PostgresConfigStore reopened = PostgresConfigStore.open(schema.settings(), clock)) {
            assertFalse(reopened.seedIfEmpty(ConfigState.from(changedFile), ConfigStores.CONFIG_ACTOR));
            assertEquals(seed.withVersion(1), reopened.state(), "a restart keeps the database's configuration");
            assertEquals(1, reopened.auditLog(10, "").entries().size());
        }
    }

    @Test
    void sequentialPositionsSurviveARestart() {
        SequentialState s = new SequentialState(
                "shop", 1, "b", true, 2, 9, SwitchReason.EMPTY_THRESHOLD, Instant.parse("2026-01-01T00:05:00Z"));
        try (PostgresConfigStore store = PostgresConfigStore.open(schema.settings(), clock)) {
            store.saveSequential(List.of(s));
        }
        try (PostgresConfigStore store = PostgresConfigStore.open(schema.settings(), clock)) {
            assertEquals(List.of(s), store.sequentialStates());
        }
    }

    @Test
    void configStoresOpensWhatTheConfigAsksFor() throws Exception {
        ProxyPoolConfig embedded = config("providers: [{ name: lab, type: jsonl_inventory, path: lab.jsonl }]\n");
        try (ConfigStore memory = ConfigStores.open(embedded, clock)) {
            assertTrue(memory instanceof MemoryConfigStore);
            assertEquals(List.of("lab"), memory.state().names(EntityType.PROVIDER));
        }
        ProxyPoolConfig pg = config("""
                database: { type: postgres, url: "jdbc:postgresql://127.0.0.1:5432/test?currentSchema=%s", user: postgres }
                providers: [{ name: lab, type: jsonl_inventory, path: lab.jsonl }]
                """.formatted(schema.name()));
        try (ConfigStore store = ConfigStores.open(pg, clock)) {
            assertTrue(store instanceof PostgresConfigStore);
            assertEquals(List.of("lab"), store.state().names(EntityType.PROVIDER));
        }
        assertEquals(
                String.valueOf(Migrator.classpath().migrations().size()),
                schema.scalar("SELECT count(*) FROM schema_migrations"),
                "every migration applied once");
    }

    @Test
    void anUnreachableDatabaseFailsStartWithAClearError() {
        int port = dev.proxypool.testkit.TestPorts.closedPort();
        DatabaseSettings dead = DatabaseSettings.of("jdbc:postgresql://127.0.0.1:" + port + "/test", "postgres");
        DatabaseUnavailableException e =
                assertThrows(DatabaseUnavailableException.class, () -> PostgresConfigStore.open(dead, clock));
        // names where it tried, so "PostgreSQL is down" and "the wrong host/port" can be told apart
        assertTrue(
                e.getMessage().startsWith("database unavailable at 127.0.0.1:" + port + " (database.url): "),
                e.getMessage());
    }

    @Test
    void theAddressOfAJdbcUrlNeverIncludesCredentials() {
        assertEquals(
                "db.example:6543", Database.address("jdbc:postgresql://db.example:6543/pp?user=u&password=secret"));
        assertEquals("db.example:5432", Database.address("jdbc:postgresql://db.example/pp"));
        assertEquals("[::1]:5433", Database.address("jdbc:postgresql://[::1]:5433/pp"));
        assertEquals("a.example:5432", Database.address("jdbc:postgresql://a.example,b.example:5433/pp"));
        assertEquals("the configured database.url", Database.address("jdbc:other://x"));
    }
}
