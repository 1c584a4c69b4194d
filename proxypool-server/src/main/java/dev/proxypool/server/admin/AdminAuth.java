package dev.proxypool.server.admin;

import dev.proxypool.sdk.credentials.Secret;
import dev.proxypool.server.api.BearerToken;
import dev.proxypool.server.persistence.ClientDocs;
import dev.proxypool.server.persistence.ConfigStore;
import dev.proxypool.server.persistence.DatabaseUnavailableException;
import dev.proxypool.server.persistence.StoredOperator;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Who an admin bearer token belongs to (docs/design.md#security, X3): the bootstrap identity of
 * {@code admin.token} (named {@value AdminService#ACTOR}, role admin), or a named operator of the
 * {@link ConfigStore} (its token's SHA-256 looked up among the stored digests). The bootstrap
 * token and the presented one are both reduced to SHA-256 and compared with
 * {@link MessageDigest#isEqual}: the time taken depends on neither the token's content nor its
 * length.
 *
 * <p>The operators are held in memory and read again from the store at most every
 * {@value #REFRESH_SECONDS} s (and at once after this process created or revoked one), so another
 * process's revocation applies within that interval, and admin reads keep their caller's identity
 * while the database is down (the last operators read stay in force). Without {@code admin.token}
 * and without any operator the admin API is disabled.
 *
 * <p>Until the operators are first read, nothing is known about a named operator's token: a
 * request that needs them waits for that first read (at most {@value #FIRST_LOAD_WAIT_MILLIS} ms)
 * and, when it does not complete in time or the database is down, is answered {@code 503} (an
 * {@link AdminException}) — never {@code 401}, which would sign a console out on every restart.
 */
final class AdminAuth {

    static final long REFRESH_SECONDS = 2;
    /** How long a request waits for the first read of the operators before it is answered 503. */
    static final long FIRST_LOAD_WAIT_MILLIS = 5_000;
    /** After a failed first read, the next attempt waits this long (a down database is not hammered per request). */
    private static final long FIRST_LOAD_RETRY_MILLIS = 1_000;

    private static final System.Logger LOG = System.getLogger(AdminAuth.class.getName());

    private final byte[] digest; // null = no bootstrap token
    private final ConfigStore store;
    private final ReentrantLock reload = new ReentrantLock();
    private volatile Map<String, AdminIdentity> operators = Map.of(); // token digest (hex) -> identity
    private volatile long loadedAt;
    private volatile boolean loaded;
    private volatile long failedAt; // nanoTime of the last failed first read, 0 = none

    AdminAuth(Optional<Secret> token, ConfigStore store) {
        this.digest =
                token.filter(t -> !t.isEmpty()).map(t -> sha256(t.reveal())).orElse(null);
        this.store = store;
    }

    /** Whether a bootstrap token is configured. */
    boolean bootstrapEnabled() {
        return digest != null;
    }

    /**
     * Whether anyone can sign in: a bootstrap token or at least one operator.
     *
     * @throws AdminException 503 while the operators were never read (without a bootstrap token)
     */
    boolean enabled() {
        return digest != null || !current().isEmpty();
    }

    /**
     * The identity of a request.
     *
     * @param authorization every {@code Authorization} header value of the request
     * @throws AdminException 503 when the token is not the bootstrap one and the operators were never read
     */
    Optional<AdminIdentity> identify(List<String> authorization) {
        Optional<String> token = BearerToken.of(authorization);
        if (token.isEmpty()) {
            return Optional.empty();
        }
        String presented = token.get();
        if (digest != null && MessageDigest.isEqual(sha256(presented), digest)) {
            return Optional.of(AdminIdentity.BOOTSTRAP);
        }
        return Optional.ofNullable(current().get(ClientDocs.tokenHash(presented)));
    }

    /** Reads the operators from the store now (after this process changed them). */
    void reloadNow() {
        reload.lock();
        try {
            load();
        } finally {
            reload.unlock();
        }
    }

    private Map<String, AdminIdentity> current() {
        if (!loaded) {
            return firstLoad();
        }
        if (System.nanoTime() - loadedAt > TimeUnit.SECONDS.toNanos(REFRESH_SECONDS)) {
            // one request reloads; the others use what is held meanwhile (known operators, not an empty map)
            if (reload.tryLock()) {
                try {
                    if (System.nanoTime() - loadedAt > TimeUnit.SECONDS.toNanos(REFRESH_SECONDS)) {
                        load();
                    }
                } finally {
                    reload.unlock();
                }
            }
        }
        return operators;
    }

    /** Every request waits for the first read (bounded): before it, an empty map would turn valid tokens into 401. */
    private Map<String, AdminIdentity> firstLoad() {
        boolean locked;
        try {
            locked = reload.tryLock(FIRST_LOAD_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw notLoaded();
        }
        if (!locked) {
            throw notLoaded();
        }
        try {
            long failed = failedAt;
            if (!loaded
                    && (failed == 0
                            || System.nanoTime() - failed > TimeUnit.MILLISECONDS.toNanos(FIRST_LOAD_RETRY_MILLIS))) {
                load();
            }
        } finally {
            reload.unlock();
        }
        if (!loaded) {
            throw notLoaded();
        }
        return operators;
    }

    private static AdminException notLoaded() {
        return AdminException.unavailable(
                "database_unavailable",
                "the named operators have not been read from the configuration database yet; retry shortly");
    }

    private void load() {
        try {
            Map<String, AdminIdentity> next = new HashMap<>();
            for (StoredOperator o : store.operators()) {
                next.put(o.tokenDigest(), new AdminIdentity(o.name(), OperatorRole.parse(o.role()), false));
            }
            operators = Map.copyOf(next);
        } catch (DatabaseUnavailableException e) {
            if (!loaded) {
                // nothing read yet: nothing may be denied on it (503 until a read succeeds)
                failedAt = Math.max(1, System.nanoTime());
                LOG.log(System.Logger.Level.WARNING, "operators not read yet: " + e.getMessage());
                return;
            }
            LOG.log(
                    System.Logger.Level.WARNING,
                    "operators not re-read, the last ones read stay in force: " + e.getMessage());
        } catch (IllegalStateException e) {
            // the store is closed: the process is stopping
        }
        loadedAt = System.nanoTime();
        loaded = true;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
