package dev.proxypool.server.persistence;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;

/**
 * A throwaway schema {@code pp_test_<random>} in the machine's real PostgreSQL
 * (127.0.0.1:5432, database {@code test}, user {@code postgres}, trust auth), dropped with
 * everything in it on {@link #close()}.
 */
public final class PgSchema implements AutoCloseable {

    public static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";
    public static final String USER = "postgres";

    private final String name;

    private PgSchema(String name) {
        this.name = name;
    }

    public static PgSchema create() {
        byte[] b = new byte[6];
        new SecureRandom().nextBytes(b);
        PgSchema s = new PgSchema("pp_test_" + HexFormat.of().formatHex(b));
        s.execute("CREATE SCHEMA " + s.name);
        return s;
    }

    public String name() {
        return name;
    }

    public DatabaseSettings settings() {
        return DatabaseSettings.of(URL, USER).withSchema(name);
    }

    /** A plain connection with this schema on the search path. */
    public Connection connect() throws SQLException {
        Connection c = DriverManager.getConnection(URL + "?currentSchema=" + name, USER, "");
        return c;
    }

    /** Runs SQL in this schema. */
    public void execute(String sql) {
        try (Connection c = DriverManager.getConnection(URL + "?currentSchema=" + name, USER, "");
                Statement st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("SQL failed: " + sql + ": " + e.getMessage(), e);
        }
    }

    /** The first column of the first row of {@code sql}, as text ({@code null} when no row). */
    public String scalar(String sql) {
        try (Connection c = connect();
                Statement st = c.createStatement();
                var rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException("SQL failed: " + sql + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
    }
}
