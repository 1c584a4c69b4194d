package dev.proxypool.sdk.lock;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * A leader lease per pipeline stage (docs/design.md#collection-pipeline, P12): when the pool is scaled out, only the
 * process holding a stage's lease writes that stage's output to the shared store. A lease is a
 * named record {@code stage → holderId} that lapses {@code ttl} after its last acquisition or
 * renewal, so a holder that dies (stops renewing) is replaced after at most one ttl.
 *
 * <p>Rules every implementation keeps:
 * <ul>
 *   <li>{@link #tryAcquire} succeeds when the stage is free (never held, released, or lapsed) or
 *       already held by the same holder (then it extends the lease like {@link #renew}).</li>
 *   <li>{@link #renew} and {@link #release} act only for the current holder: compare-and-set on the
 *       holder id, so a holder whose lease lapsed and was taken over cannot renew or release the
 *       new holder's lease.</li>
 *   <li>The lease is advisory: a holder must check the answer of its last {@link #renew} before each
 *       write and stop writing when it is false (or when the store cannot be reached). Between that
 *       check and the write a long pause (GC, a stalled host) can still overlap the next holder;
 *       keep writes idempotent (the pool store's upsert is).</li>
 * </ul>
 * Implementations throw {@link dev.proxypool.core.extract.StoreUnavailableException} when the
 * shared store cannot be reached; a caller then acts as if it did not hold the lease. Thread-safe.
 */
public interface StageLock extends AutoCloseable {

    /** The stage name of the collection pipeline's lease. */
    String PIPELINE = "pipeline";

    /** Takes the lease of {@code stage} for {@code ttl} if it is free or already ours. */
    boolean tryAcquire(String stage, String holderId, Duration ttl);

    /** Extends our lease of {@code stage} to {@code ttl} from now; false when we do not hold it. */
    boolean renew(String stage, String holderId, Duration ttl);

    /** Gives up our lease of {@code stage} at once; false when we did not hold it. */
    boolean release(String stage, String holderId);

    /** Who holds {@code stage} now, empty when nobody does. */
    Optional<String> currentHolder(String stage);

    /** Releases resources (connections); held leases are not released (call {@link #release}). */
    @Override
    void close();

    /**
     * A holder id unique to this process run: {@code host/pid/random}. The host and pid help an
     * operator find the writer; the random part keeps a restarted process from being mistaken for
     * its previous run.
     */
    static String newHolderId() {
        String host = System.getenv().getOrDefault("HOSTNAME", "");
        if (host.isBlank()) {
            host = ManagementFactory.getRuntimeMXBean().getName();
            int at = host.indexOf('@');
            host = at >= 0 ? host.substring(at + 1) : host;
        }
        return host + "/" + ProcessHandle.current().pid() + "/"
                + UUID.randomUUID().toString().substring(0, 8);
    }
}
