package dev.proxypool.sdk.engine;

import dev.proxypool.sdk.Lease;

/** The answer of {@link PoolEngine#acquire}: a lease, or a rejection with its wire reason. */
public sealed interface AcquireResult {

    /** A proxy is reserved for this request; the lease must be closed. */
    record Acquired(Lease lease) implements AcquireResult {}

    /** The routing says {@code onNoCandidate: direct} and nothing qualified: connect without a proxy. */
    record Direct(String detail) implements AcquireResult {}

    /**
     * Nothing to serve with.
     *
     * @param reason the {@code X-ProxyPool-Error} code: {@code no_candidate} or {@code session_lost}
     * @param detail why, for logs and the error body (never an address): e.g. {@code busy}, {@code no_match}
     */
    record Rejected(String reason, String detail) implements AcquireResult {
        public static final String NO_CANDIDATE = "no_candidate";
        public static final String SESSION_LOST = "session_lost";
    }
}
