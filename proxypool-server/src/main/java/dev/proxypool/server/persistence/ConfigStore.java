package dev.proxypool.server.persistence;

import dev.proxypool.core.sequential.SequentialState;
import java.util.List;
import java.util.Optional;

/**
 * Where the admin configuration (providers, upstreams, routings, clients), the sequential routing
 * states, the named operators and the audit log live. Two implementations: {@link MemoryConfigStore} (the embedded
 * default, seeded from {@code proxypool.yaml}) and {@link PostgresConfigStore} (docs/design.md#configuration-source, K5). The
 * {@code ConfigStoreContract} test suite runs against both.
 *
 * <p>Rules: a write and its audit row are one atomic step (both or neither); writes are
 * serialized, each sees the state the previous one left; every configuration write bumps
 * {@link ConfigState#version()} by one. Secrets reach the store hashed and never leave it in
 * audit rows. Methods of the PostgreSQL store throw {@link DatabaseUnavailableException} when the
 * database cannot be reached. Thread-safe.
 */
public interface ConfigStore extends AutoCloseable {

    /** The current configuration. */
    ConfigState state();

    /**
     * The configuration this store last read or wrote, which the process applied (routings, clients and
     * collection follow it): what admin reads answer while the database cannot be reached. Empty when
     * nothing was read yet, or for a store that is never unreachable.
     */
    default Optional<ConfigState> lastKnownState() {
        return Optional.empty();
    }

    /**
     * Runs {@code edit} on the current state and stores its result with an audit row by
     * {@code actor}, atomically. Exceptions of the edit propagate and nothing is stored.
     */
    ConfigChange apply(ConfigEdit edit, String actor);

    /** Writes one audit row (an operator action on the live pool). */
    AuditEntry audit(AuditRecord record);

    /** Stores one routing's sequential state together with its audit row (an admin reset/advance). */
    void saveSequential(SequentialState state, AuditRecord record);

    /** Stores sequential states without audit (automatic switches on Empty outcomes). */
    void saveSequential(List<SequentialState> states);

    /** Every stored sequential state, to {@code SequentialBoard.restore} at start. */
    List<SequentialState> sequentialStates();

    /**
     * Audit rows, newest first.
     *
     * @param limit  1..{@value AuditPage#MAX_LIMIT}
     * @param cursor {@code ""} or a {@link AuditPage#nextCursor()}
     */
    AuditPage auditLog(int limit, String cursor);

    /** Every named operator, by name (token digests only). */
    List<StoredOperator> operators();

    /**
     * Stores a new operator together with its audit row.
     *
     * @return false, with nothing written, when an operator of that name exists
     */
    boolean createOperator(StoredOperator operator, AuditRecord record);

    /**
     * Deletes an operator (its token stops working) together with its audit row.
     *
     * @return false, with nothing written, when there is no operator of that name
     */
    boolean deleteOperator(String name, AuditRecord record);

    @Override
    void close();
}
