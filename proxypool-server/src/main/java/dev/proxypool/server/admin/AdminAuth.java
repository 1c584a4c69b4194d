package dev.proxypool.server.admin;

import dev.proxypool.sdk.credentials.Secret;
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
 */
final class AdminAuth {

    static final long REFRESH_SECONDS = 2;

    private static final System.Logger LOG = System.getLogger(AdminAuth.class.getName());

    private final byte[] digest; // null = no bootstrap token
    private final ConfigStore store;
    private final ReentrantLock reload = new ReentrantLock();
    private volatile Map<String, AdminIdentity> operators = Map.of(); // token digest (hex) -> identity
    private volatile long loadedAt;
    private volatile boolean loaded;

    AdminAuth(Optional<Secret> token, ConfigStore store) {
        this.digest =
                token.filter(t -> !t.isEmpty()).map(t -> sha256(t.reveal())).orElse(null);
        this.store = store;
    }

    /** Whether a bootstrap token is configured. */
    boolean bootstrapEnabled() {
        return digest != null;
    }

    /** Whether anyone can sign in: a bootstrap token or at least one operator. */
    boolean enabled() {
        return digest != null || !current().isEmpty();
    }

    /**
     * The identity of a request.
     *
     * @param authorization every {@code Authorization} header value of the request
     */
    Optional<AdminIdentity> identify(List<String> authorization) {
        if (authorization.size() != 1) {
            return Optional.empty();
        }
        String h = authorization.getFirst();
        if (h.length() > 4096 || !h.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String presented = h.substring(7).strip();
        if (presented.isEmpty()) {
            return Optional.empty();
        }
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
        if (!loaded || System.nanoTime() - loadedAt > TimeUnit.SECONDS.toNanos(REFRESH_SECONDS)) {
            // one request reloads; the others use what is held meanwhile
            if (reload.tryLock()) {
                try {
                    if (!loaded || System.nanoTime() - loadedAt > TimeUnit.SECONDS.toNanos(REFRESH_SECONDS)) {
                        load();
                    }
                } finally {
                    reload.unlock();
                }
            }
        }
        return operators;
    }

    private void load() {
        try {
            Map<String, AdminIdentity> next = new HashMap<>();
            for (StoredOperator o : store.operators()) {
                next.put(o.tokenDigest(), new AdminIdentity(o.name(), OperatorRole.parse(o.role()), false));
            }
            operators = Map.copyOf(next);
        } catch (DatabaseUnavailableException e) {
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
