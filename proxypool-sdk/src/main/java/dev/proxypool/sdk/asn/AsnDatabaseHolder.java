package dev.proxypool.sdk.asn;

import dev.proxypool.core.model.ExitNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Serves the current {@link AsnDatabase} and replaces it atomically, only with a fully verified
 * load. A missing, corrupt, checksum-mismatched or stale file keeps the previous database in
 * service and records why; {@link AsnStatus#publishable()} then turns false so the pipeline keeps
 * the previous validated snapshot (docs/design.md#collection-pipeline, P9).
 *
 * <p>Thread-safety: readers take one volatile read of an immutable state ({@link AtomicReference});
 * reloads are serialized by a lock so two reloads cannot interleave their results.
 */
public final class AsnDatabaseHolder {

    private record State(AsnDatabase database, AsnSource source, AsnLoadError lastError) {}

    private final Path file;
    private final AsnDatabaseLoader loader;
    private final AtomicReference<State> state = new AtomicReference<>(new State(AsnDatabase.EMPTY, null, null));
    private final ReentrantLock reloading = new ReentrantLock();

    public AsnDatabaseHolder(Path file, AsnDatabaseLoader loader) {
        this.file = file;
        this.loader = loader;
    }

    /** Loads the file again; swaps the database only when the load is fully verified. */
    public AsnStatus reload() {
        reloading.lock();
        try {
            AsnLoadResult result = loader.load(file);
            State prev = state.get();
            State next = switch (result) {
                case AsnLoadResult.Loaded l -> new State(l.database(), l.source(), null);
                case AsnLoadResult.Failed f -> new State(prev.database(), prev.source(), f.error());
            };
            state.set(next);
            return status();
        } finally {
            reloading.unlock();
        }
    }

    /** The database in service ({@link AsnDatabase#EMPTY} before the first good load). */
    public AsnDatabase database() {
        return state.get().database();
    }

    /** Looks {@code ip} up in the database in service. */
    public ExitNetwork lookup(String ip) {
        return database().lookup(ip);
    }

    /** The status now: freshness is judged against the clock at this call. */
    public AsnStatus status() {
        State s = state.get();
        boolean fresh = s.source() != null
                && Duration.between(s.source().fileModifiedAt(), loader.clock().instant())
                                .compareTo(loader.maxAge())
                        <= 0;
        return new AsnStatus(Optional.ofNullable(s.source()), Optional.ofNullable(s.lastError()), fresh);
    }
}
