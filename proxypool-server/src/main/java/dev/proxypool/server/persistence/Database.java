package dev.proxypool.server.persistence;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.net.ConnectException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * A HikariCP pool and a jOOQ {@link DSLContext} over it (plain-SQL DSL, no generated code).
 *
 * <p>The pool starts without a connection ({@code initializationFailTimeout = -1},
 * {@code minimumIdle = 0}): a process whose database is down still starts, serves what needs no
 * database, and every database call fails within {@link DatabaseSettings#connectionTimeout()}
 * with {@link DatabaseUnavailableException} instead of hanging. Thread-safe.
 */
public final class Database implements AutoCloseable {

    static {
        // jOOQ prints a banner and tips on first use otherwise
        System.setProperty("org.jooq.no-logo", "true");
        System.setProperty("org.jooq.no-tips", "true");
    }

    private static final Settings SETTINGS = new Settings().withExecuteLogging(false);

    private final HikariDataSource pool;
    /** {@code host:port} of the JDBC URL, for messages (never the user or password). */
    private final String address;

    private Database(HikariDataSource pool, String address) {
        this.pool = pool;
        this.address = address;
    }

    /**
     * The {@code host[:port]} part of a {@code jdbc:postgresql://} URL (the first host of a list,
     * port 5432 when absent), or {@code "the configured database.url"} when it has none.
     */
    static String address(String jdbcUrl) {
        String prefix = "jdbc:postgresql://";
        if (jdbcUrl == null || !jdbcUrl.startsWith(prefix)) {
            return "the configured database.url";
        }
        String rest = jdbcUrl.substring(prefix.length());
        int end = rest.length();
        for (char c : new char[] {'/', '?', ','}) {
            int i = rest.indexOf(c);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        String hostPort = rest.substring(0, end);
        int at = hostPort.lastIndexOf('@');
        hostPort = at >= 0 ? hostPort.substring(at + 1) : hostPort;
        if (hostPort.isEmpty()) {
            return "localhost:5432";
        }
        boolean hasPort = hostPort.startsWith("[") ? hostPort.contains("]:") : hostPort.indexOf(':') >= 0;
        return hasPort ? hostPort : hostPort + ":5432";
    }

    /** The {@code host:port} this pool connects to. */
    public String address() {
        return address;
    }

    /** {@code e} with the address in its message ({@code database unavailable at host:port: ...}). */
    DatabaseUnavailableException withAddress(DatabaseUnavailableException e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        if (m.contains(address)) {
            return e;
        }
        String rest = m.startsWith("database unavailable: ") ? m.substring("database unavailable: ".length()) : m;
        return new DatabaseUnavailableException("database unavailable at " + address + " (database.url): " + rest, e);
    }

    public static Database open(DatabaseSettings s) {
        HikariConfig c = new HikariConfig();
        c.setPoolName("proxypool-admin");
        c.setJdbcUrl(s.url());
        if (!s.user().isEmpty()) {
            c.setUsername(s.user());
        }
        s.password().ifPresent(p -> c.setPassword(p.reveal()));
        s.schema().ifPresent(c::setSchema);
        c.setMaximumPoolSize(s.maxPoolSize());
        c.setMinimumIdle(0);
        c.setConnectionTimeout(s.connectionTimeout().toMillis());
        c.setValidationTimeout(Math.min(1000, s.connectionTimeout().toMillis()));
        c.setInitializationFailTimeout(-1);
        long connectSeconds = Math.max(1, (s.connectionTimeout().toMillis() + 999) / 1000);
        c.addDataSourceProperty("connectTimeout", Long.toString(connectSeconds));
        c.addDataSourceProperty("socketTimeout", "30");
        c.addDataSourceProperty("tcpKeepAlive", "true");
        c.addDataSourceProperty("ApplicationName", "proxypool");
        return new Database(new HikariDataSource(c), address(s.url()));
    }

    public DataSource dataSource() {
        return pool;
    }

    /**
     * Runs {@code work} in one transaction (commit on return, rollback on any exception). The
     * connection is taken once, up front: a dead database costs one connection timeout, not one per
     * step of jOOQ's transaction handling.
     */
    public <T> T transaction(Function<DSLContext, T> work) {
        return withConnection(c -> c.transactionResult(cfg -> work.apply(DSL.using(cfg))));
    }

    /** A read outside an explicit transaction (autocommit). */
    public <T> T read(Function<DSLContext, T> work) {
        return withConnection(work);
    }

    private <T> T withConnection(Function<DSLContext, T> work) {
        Connection c;
        try {
            c = pool.getConnection();
        } catch (SQLException e) {
            throw unavailable(e)
                    ? new DatabaseUnavailableException(
                            "database unavailable at " + address + " (database.url): " + rootMessage(e), e)
                    : new DataAccessException("cannot get a database connection: " + e.getMessage(), e);
        }
        try (c) {
            return work.apply(DSL.using(c, SQLDialect.POSTGRES, SETTINGS));
        } catch (RuntimeException e) {
            throw translate(e);
        } catch (SQLException e) {
            throw translate(new DataAccessException("closing a database connection failed: " + e.getMessage(), e));
        }
    }

    /** {@code e} itself, or a {@link DatabaseUnavailableException} when it means the database cannot be reached. */
    static RuntimeException translate(RuntimeException e) {
        if (e instanceof DatabaseUnavailableException) {
            return e;
        }
        if ((e instanceof DataAccessException || e.getCause() instanceof SQLException) && unavailable(e)) {
            return new DatabaseUnavailableException("database unavailable: " + rootMessage(e), e);
        }
        return e;
    }

    /** Connection-level failures: no connection in time, refused, lost, or the server shutting down. */
    static boolean unavailable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLTransientConnectionException || t instanceof ConnectException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03")) {
                    return true;
                }
            }
        }
        return false;
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage();
        return m == null ? t.getClass().getSimpleName() : m.lines().findFirst().orElse(m);
    }

    @Override
    public void close() {
        pool.close();
    }
}
