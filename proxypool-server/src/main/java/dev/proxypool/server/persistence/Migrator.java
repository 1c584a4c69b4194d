package dev.proxypool.server.persistence;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * Applies versioned SQL migrations at start.
 *
 * <ol>
 *   <li>Takes a PostgreSQL session advisory lock keyed by the current schema, so two processes
 *       starting together migrate one after the other (the second finds nothing to do).</li>
 *   <li>Creates {@code schema_migrations(version, description, checksum, applied_at)} if missing.</li>
 *   <li>Checks every applied migration against the known files: a changed statement (comments do not
 *       count), or an applied version this build does not know, stops start with a message saying
 *       which file. A row recorded by an earlier build, whose checksum covered the whole text, is
 *       recognised and rewritten to the statements-only checksum.</li>
 *   <li>Applies each missing migration in version order, each in its own transaction together
 *       with its {@code schema_migrations} row (PostgreSQL DDL is transactional: a failing
 *       migration leaves nothing behind).</li>
 * </ol>
 * Re-running is a no-op. Migrations live under {@value #DIRECTORY}, listed in order in {@value #INDEX}
 * (a classpath cannot be listed portably).
 */
public final class Migrator {

    public static final String DIRECTORY = "db/migration/";
    public static final String INDEX = DIRECTORY + "migrations.list";
    /** First key of the advisory lock (the second is the schema's hash): "PP" + 1. */
    static final int LOCK_CLASS = 0x5050_0001;

    /**
     * Whole-text checksums (comments included) that earlier builds recorded for a migration whose
     * comments were edited since; only comments differ, so a database carrying one is current and its
     * row is rewritten to the statements-only checksum. V1: its comments cited documents outside the
     * repository until they were reworded.
     */
    private static final Map<Integer, Set<String>> EARLIER_FULL_TEXT =
            Map.of(1, Set.of("db0af26bc29d4242f1840f8f8c31e99711cbd2549501394203d315c1e64dc85d"));

    private final List<Migration> migrations;

    public Migrator(List<Migration> migrations) {
        List<Migration> sorted = new ArrayList<>(migrations);
        sorted.sort(Comparator.comparingInt(Migration::version));
        Set<Integer> seen = new HashSet<>();
        for (Migration m : sorted) {
            if (!seen.add(m.version())) {
                throw new IllegalArgumentException("two migrations have version " + m.version());
            }
        }
        this.migrations = List.copyOf(sorted);
    }

    /** The migrations shipped with the server. */
    public static Migrator classpath() {
        ClassLoader cl = Migrator.class.getClassLoader();
        List<Migration> out = new ArrayList<>();
        for (String line : resource(cl, INDEX).lines().toList()) {
            String name = line.strip();
            if (!name.isEmpty() && !name.startsWith("#")) {
                out.add(Migration.of(name, resource(cl, DIRECTORY + name)));
            }
        }
        return new Migrator(out);
    }

    private static String resource(ClassLoader cl, String path) {
        try (InputStream in = cl.getResourceAsStream(path)) {
            if (in == null) {
                throw new MigrationException("migration resource " + path + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    public List<Migration> migrations() {
        return migrations;
    }

    /**
     * Brings the schema up to date.
     *
     * @return the versions applied by this call (empty when already current)
     * @throws MigrationException          when an applied migration changed or is unknown, or one fails
     * @throws DatabaseUnavailableException when the database cannot be reached
     */
    public List<Integer> migrate(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            try (Statement st = c.createStatement()) {
                st.execute("SELECT pg_advisory_lock(" + LOCK_CLASS + ", hashtext(coalesce(current_schema(), '')))");
            }
            try {
                return migrateLocked(c);
            } finally {
                try (Statement st = c.createStatement()) {
                    st.execute(
                            "SELECT pg_advisory_unlock(" + LOCK_CLASS + ", hashtext(coalesce(current_schema(), '')))");
                }
            }
        } catch (SQLException e) {
            if (Database.unavailable(e)) {
                throw new DatabaseUnavailableException("database unavailable: " + Database.rootMessage(e), e);
            }
            throw new MigrationException("schema migration failed: " + e.getMessage(), e);
        }
    }

    private List<Integer> migrateLocked(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                    + "version integer PRIMARY KEY, description text NOT NULL, checksum text NOT NULL, "
                    + "applied_at timestamptz NOT NULL DEFAULT now())");
        }
        Map<Integer, String> applied = new TreeMap<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT version, checksum FROM schema_migrations ORDER BY version")) {
            while (rs.next()) {
                applied.put(rs.getInt(1), rs.getString(2));
            }
        }
        Map<Integer, Migration> known = new TreeMap<>();
        migrations.forEach(m -> known.put(m.version(), m));
        for (Map.Entry<Integer, String> a : applied.entrySet()) {
            Migration m = known.get(a.getKey());
            if (m == null) {
                throw new MigrationException("the database schema has migration version " + a.getKey()
                        + " applied, which this build does not know (newest known: "
                        + (migrations.isEmpty() ? "none" : migrations.getLast().version())
                        + "): it was migrated by a newer ProxyPool; run that version or restore the database");
            }
            if (!m.checksum().equals(a.getValue()) && recordedByAnEarlierBuild(m, a.getValue())) {
                try (PreparedStatement ps =
                        c.prepareStatement("UPDATE schema_migrations SET checksum = ? WHERE version = ?")) {
                    ps.setString(1, m.checksum());
                    ps.setInt(2, m.version());
                    ps.executeUpdate();
                }
            } else if (!m.checksum().equals(a.getValue())) {
                throw new MigrationException("migration " + m.fileName() + " was changed after it was applied"
                        + " (checksum in schema_migrations " + a.getValue().substring(0, 12) + "..., file "
                        + m.checksum().substring(0, 12) + "...): applied migrations must never be edited;"
                        + " restore the file and put the change in a new migration");
            }
        }
        List<Integer> done = new ArrayList<>();
        for (Migration m : migrations) {
            if (applied.containsKey(m.version())) {
                continue;
            }
            apply(c, m);
            done.add(m.version());
        }
        return done;
    }

    /** A whole-text checksum of this file, or of an earlier wording of its comments, recorded before comments stopped counting. */
    private static boolean recordedByAnEarlierBuild(Migration m, String recorded) {
        return m.fullTextChecksum().equals(recorded)
                || EARLIER_FULL_TEXT.getOrDefault(m.version(), Set.of()).contains(recorded);
    }

    private static void apply(Connection c, Migration m) throws SQLException {
        c.setAutoCommit(false);
        try {
            try (Statement st = c.createStatement()) {
                st.execute(m.sql());
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO schema_migrations(version, description, checksum) VALUES (?, ?, ?)")) {
                ps.setInt(1, m.version());
                ps.setString(2, m.description());
                ps.setString(3, m.checksum());
                ps.executeUpdate();
            }
            c.commit();
        } catch (SQLException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                e.addSuppressed(ignored);
            }
            if (Database.unavailable(e)) {
                throw e;
            }
            throw new MigrationException(
                    "migration " + m.fileName() + " failed and was rolled back: " + e.getMessage(), e);
        } finally {
            c.setAutoCommit(true);
        }
    }
}
