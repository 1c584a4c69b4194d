package dev.proxypool.core.extract;

/**
 * What one {@link PoolStore#upsert} did with each proxy it was given; the five counts add up to
 * the number of proxies passed in.
 *
 * @param added             new to the store, now available
 * @param refreshed         already stored under the same id: record replaced, state and checkedAt kept
 * @param skippedTombstoned extracted before and its tombstone has not expired (docs/design.md#extraction, E2): not re-added
 * @param skippedExpired    already expired at publish time
 * @param skippedDuplicate  its {@link dev.proxypool.core.model.ProxyKey} is already stored under another
 *                          id (another upstream listed the same proxy first): one physical proxy is
 *                          held once, so it can never be extracted twice
 */
public record PublishResult(int added, int refreshed, int skippedTombstoned, int skippedExpired, int skippedDuplicate) {

    /** Nothing published: every count 0. */
    public static final PublishResult NONE = new PublishResult(0, 0, 0, 0, 0);

    /**
     * Checks the counts.
     *
     * @throws IllegalArgumentException if a count is negative
     */
    public PublishResult {
        if (added < 0 || refreshed < 0 || skippedTombstoned < 0 || skippedExpired < 0 || skippedDuplicate < 0) {
            throw new IllegalArgumentException("publish counts must not be negative");
        }
    }

    /**
     * All proxies this result accounts for.
     *
     * @return the sum of the five counts
     */
    public int total() {
        return added + refreshed + skippedTombstoned + skippedExpired + skippedDuplicate;
    }
}
