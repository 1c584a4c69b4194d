package dev.proxypool.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The migrator against the real PostgreSQL, in a schema of its own per test. */
class MigratorTest {

    private static final List<String> TABLES = List.of(
            "schema_migrations",
            "config_version",
            "providers",
            "upstreams",
            "routings",
            "clients",
            "sequential_state",
            "node_tokens",
            "node_members",
            "operators",
            "audit_log");

    private PgSchema schema;
    private Database db;

    @BeforeEach
    void setUp() {
        schema = PgSchema.create();
        db = Database.open(schema.settings());
    }

    @AfterEach
    void tearDown() {
        db.close();
        schema.close();
    }

    private List<String> tables() {
        String list =
                schema.scalar("SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables"
                        + " WHERE table_schema = '" + schema.name() + "'");
        return list == null ? List.of() : List.of(list.split(","));
    }

    @Test
    void migratesAnEmptySchemaAndRerunsAsANoOp() {
        assertEquals(List.of(), tables());
        assertEquals(List.of(1, 2, 3), Migrator.classpath().migrate(db.dataSource()));
        assertTrue(tables().containsAll(TABLES), "tables: " + tables());
        assertEquals("0", schema.scalar("SELECT version FROM config_version"));
        String applied = schema.scalar("SELECT checksum FROM schema_migrations WHERE version = 1");
        assertEquals(Migrator.classpath().migrations().getFirst().checksum(), applied);

        assertEquals(List.of(), Migrator.classpath().migrate(db.dataSource()));
        assertEquals(List.of(), Migrator.classpath().migrate(db.dataSource()));
        assertEquals("3", schema.scalar("SELECT count(*) FROM schema_migrations"));
        assertEquals("1", schema.scalar("SELECT count(*) FROM config_version"));
    }

    @Test
    void aChangedAppliedMigrationStopsStartNamingTheFile() {
        Migrator.classpath().migrate(db.dataSource());
        Migration original = Migrator.classpath().migrations().getFirst();
        Migrator edited = new Migrator(List.of(Migration.of(
                original.fileName(), original.sql() + "\nCREATE INDEX edited_later ON audit_log (at);\n")));

        MigrationException e = assertThrows(MigrationException.class, () -> edited.migrate(db.dataSource()));
        assertTrue(e.getMessage().contains("migration V1__init.sql was changed after it was applied"), e.getMessage());
        assertTrue(e.getMessage().contains("new migration"), e.getMessage());
    }

    @Test
    void lineEndingsDoNotChangeTheChecksum() {
        Migration lf = Migration.of("V1__x.sql", "CREATE TABLE a (x int);\nCREATE TABLE b (y int);\n");
        Migration crlf = Migration.of("V1__x.sql", "CREATE TABLE a (x int);\r\nCREATE TABLE b (y int);\r\n");
        assertEquals(lf.checksum(), crlf.checksum());
    }

    @Test
    void editedCommentsAndBlankLinesAreNotAChange() {
        Migration plain = Migration.of("V1__x.sql", "CREATE TABLE a (x int);\nCREATE TABLE b (y int);\n");
        Migration commented = Migration.of(
                "V1__x.sql", "-- what a is for\nCREATE TABLE a (x int);   \n\n    -- and b\nCREATE TABLE b (y int);\n");
        assertEquals(plain.checksum(), commented.checksum());
        assertTrue(!plain.fullTextChecksum().equals(commented.fullTextChecksum()));
        Migration changed = Migration.of("V1__x.sql", "CREATE TABLE a (x bigint);\nCREATE TABLE b (y int);\n");
        assertTrue(!plain.checksum().equals(changed.checksum()), "a changed statement is a change");
    }

    @Test
    void aDatabaseMigratedByAnEarlierBuildIsRecognisedAndItsChecksumRewritten() {
        Migrator.classpath().migrate(db.dataSource());
        // what builds before comments stopped counting recorded for V1: the whole text's checksum of the
        // file as it was then (its comments cited documents outside the repository)
        String earlier = "db0af26bc29d4242f1840f8f8c31e99711cbd2549501394203d315c1e64dc85d";
        schema.execute("UPDATE schema_migrations SET checksum = '" + earlier + "' WHERE version = 1");

        assertEquals(List.of(), Migrator.classpath().migrate(db.dataSource()));
        assertEquals(
                Migrator.classpath().migrations().getFirst().checksum(),
                schema.scalar("SELECT checksum FROM schema_migrations WHERE version = 1"));

        // a row with the whole-text checksum of today's file (recorded by such a build after the rewording) too
        schema.execute("UPDATE schema_migrations SET checksum = '"
                + Migrator.classpath().migrations().getFirst().fullTextChecksum() + "' WHERE version = 1");
        assertEquals(List.of(), Migrator.classpath().migrate(db.dataSource()));
        assertEquals(
                Migrator.classpath().migrations().getFirst().checksum(),
                schema.scalar("SELECT checksum FROM schema_migrations WHERE version = 1"));
    }

    @Test
    void aNewerSchemaThanThisBuildKnowsIsRefused() {
        List<Migration> more = new ArrayList<>(Migrator.classpath().migrations());
        more.add(Migration.of("V4__later.sql", "CREATE TABLE later (x int);"));
        new Migrator(more).migrate(db.dataSource());

        MigrationException e = assertThrows(
                MigrationException.class, () -> Migrator.classpath().migrate(db.dataSource()));
        assertTrue(e.getMessage().contains("version 4 applied, which this build does not know"), e.getMessage());
    }

    @Test
    void aFailingMigrationLeavesNothingBehind() {
        List<Migration> more = new ArrayList<>(Migrator.classpath().migrations());
        more.add(Migration.of("V4__broken.sql", "CREATE TABLE half_done (x int);\nSELECT 1 / 0;"));

        MigrationException e =
                assertThrows(MigrationException.class, () -> new Migrator(more).migrate(db.dataSource()));
        assertTrue(e.getMessage().contains("V4__broken.sql failed and was rolled back"), e.getMessage());
        assertTrue(!tables().contains("half_done"), "tables: " + tables());
        assertEquals("3", schema.scalar("SELECT max(version) FROM schema_migrations"), "V1 to V3 stay applied");
    }

    @Test
    void badFileNamesAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Migration.of("init.sql", "x"));
        assertTrue(e.getMessage().contains("V<version>__<description>.sql"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> new Migrator(List.of(Migration.of("V1__a.sql", "x"), Migration.of("V1__b.sql", "y"))));
    }

    @Test
    void concurrentStartsMigrateOnceUnderTheAdvisoryLock() throws Exception {
        int processes = 4;
        ExecutorService pool = Executors.newFixedThreadPool(processes);
        List<Database> dbs = new ArrayList<>();
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<List<Integer>>> results = new ArrayList<>();
            for (int i = 0; i < processes; i++) {
                Database own = Database.open(schema.settings());
                dbs.add(own);
                results.add(pool.submit(() -> {
                    go.await();
                    return Migrator.classpath().migrate(own.dataSource());
                }));
            }
            go.countDown();
            List<Integer> applied = Collections.synchronizedList(new ArrayList<>());
            for (Future<List<Integer>> f : results) {
                applied.addAll(f.get(20, TimeUnit.SECONDS));
            }
            assertEquals(List.of(1, 2, 3), applied, "exactly one process applies V1 to V3");
            assertEquals("3", schema.scalar("SELECT count(*) FROM schema_migrations"));
        } finally {
            pool.shutdownNow();
            dbs.forEach(Database::close);
        }
    }
}
