package dev.proxypool.core.extract;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pool state behind exclusive extraction (docs/design.md#extraction; docs/architecture.md#storage): available and
 * disabled proxies, tombstones of extracted ones, idempotency records. Implemented in memory
 * ({@link MemoryPoolStore}, the embedded default) and on Redis (scale-out); the abstract
 * {@code PoolStoreContract} in this module's test-jar is the executable form of these rules and
 * every implementation must pass it.
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li><b>Time is the caller's.</b> Every rule compares stored instants with the {@code now}
 *       argument. A Redis store keeps expiry instants as values/scores and compares them with the
 *       {@code now} it is given; native key TTLs may only garbage-collect entries that are already
 *       logically expired (set them relative to {@code now}, never shorter).</li>
 *   <li><b>One physical proxy, one entry.</b> The store holds at most one proxy per
 *       {@link ProxyKey}; a second id with a stored key is skipped as a duplicate. Extraction hands
 *       out a physical proxy once, whichever upstreams list it.</li>
 *   <li><b>Extraction is atomic.</b> Candidate selection and the AVAILABLE → EXTRACTED transition
 *       (removal plus tombstone) are one indivisible step: concurrent callers never receive the
 *       same proxy, an {@code allOrNothing} shortfall changes nothing, and the gateway reserve
 *       ({@link ExtractionRequest}) is computed on the same state that is modified.</li>
 *   <li><b>Exact counts.</b> {@code partial} extracts exactly
 *       {@code min(count, matching, total - reserve)} (at least 0), where {@code matching} counts
 *       available proxies {@linkplain ExtractionRequest#admits admitted} at {@code now} and not
 *       held out by {@link #markUnhealthy} (only HEALTHY proxies are extractable); no
 *       sampling shortfall is allowed.</li>
 *   <li><b>Which proxies</b> among the matching ones is the implementation's choice; the contract
 *       checks only that each one matches. {@link MemoryPoolStore} takes them in publish order, but
 *       for those an earlier filtered walk passed over, which it meets last.</li>
 *   <li><b>Tombstones.</b> An extracted proxy's key is tombstoned until its {@code expiresAt}, or
 *       for {@link StoreSettings#tombstoneRetentionForNoExpiry()} when it never expires. While
 *       tombstoned, publishing it again (under any id or upstream) is skipped. PostgreSQL and any
 *       other place keep no per-proxy extraction facts.</li>
 *   <li><b>Inspection counts are as stored:</b> an expired proxy counts (and lists) until
 *       {@link #purgeExpired} drops it, but is never extracted nor counted in the reserve's total.</li>
 *   <li>All methods are thread-safe. After {@link #close()} every method throws
 *       {@link IllegalStateException}.</li>
 * </ul>
 *
 * <h2>Redis mapping (one Lua script per call, indexed sets, no full scans)</h2>
 * A proxy hash per id (record, state, checkedAt); a set of available ids per upstream, per protocol,
 * per label {@code key=value} and one of all available ids; a key → id string for duplicate
 * detection; a sorted set of all stored ids by {@code expiresAt} (score) for purging; a sorted set
 * of ids with equal scores for lexicographic paging ({@code ZRANGEBYLEX}); the set of upstream names
 * with a disabled count or set per upstream; a tombstone string per key holding its expiry; an
 * idempotency hash per (client, key) plus a sorted set by start time for the size cap. Extraction:
 * drop expired ids ({@code ZRANGEBYSCORE ... now}), read the total ({@code SCARD}), then take members
 * of the filter's index sets ({@code SINTER}, or the smallest set checking the rest per member),
 * checking TTL and health per member, stopping at the allowance. With no filter and no TTL/health
 * limit every member qualifies, so {@code SPOP}/{@code SRANDMEMBER} of the all-set suffices.
 */
public interface PoolStore extends AutoCloseable {

    /**
     * Adds new proxies as AVAILABLE and refreshes stored ones (same id: the record is replaced, its
     * state and checkedAt are kept, its indices follow changed labels). Skips proxies that are
     * tombstoned, already expired at {@code now}, or whose key is stored under another id. Never
     * removes a proxy that is not listed: an upstream's fetch adds to the pool, old proxies drain
     * by TTL or {@link #remove}.
     *
     * @return what happened to each proxy (counts add up to {@code proxies.size()})
     * @param proxies the proxies to add or refresh; not null, no null element
     * @param now     the caller's wall-clock time, the only time the store compares against
     */
    PublishResult upsert(Collection<Proxy> proxies, Instant now);

    /**
     * {@link #upsert} of one upstream's fetch result.
     *
     * @throws IllegalArgumentException when a proxy belongs to another upstream
     * @param upstream the upstream that was fetched; every proxy's {@link Proxy#upstream()} must equal it
     * @param proxies  the fetch result; not null, no null element
     * @param now      the caller's wall-clock time
     * @return what happened to each proxy, as {@link #upsert} reports it
     */
    default PublishResult publish(String upstream, Collection<Proxy> proxies, Instant now) {
        if (upstream == null || upstream.isBlank()) {
            throw new IllegalArgumentException("upstream must not be blank");
        }
        for (Proxy p : proxies) {
            if (p == null) {
                throw new IllegalArgumentException("proxies must not contain null");
            }
            if (!upstream.equals(p.upstream())) {
                throw new IllegalArgumentException(
                        "proxy " + p.id() + " belongs to upstream '" + p.upstream() + "', not '" + upstream + "'");
            }
        }
        return upsert(proxies, now);
    }

    /**
     * Removes these proxies (any state) without tombstoning them; unknown ids are ignored.
     *
     * @param proxyIds ids of stored proxies; not null
     * @return how many were removed
     */
    int remove(Collection<String> proxyIds);

    /**
     * Marks the pool's content as in place: the pipeline's writer calls it after each publication.
     * A store that can lose its content behind the process's back (a Redis restarted without
     * persistence, a {@code FLUSHALL}) keeps the mark with the content, so {@link #lostContent}
     * can tell; a memory store keeps nothing.
     */
    default void markContent() {}

    /**
     * Whether the content marked by this process's last {@link #markContent} is gone (the mark with
     * it): the writer then republishes its last collection at once instead of serving an empty pool
     * until the next fetch. False before any mark, and always for a store that cannot lose content.
     *
     * @return true once the mark written by this process has disappeared
     * @throws StoreUnavailableException when the store cannot be asked
     */
    default boolean lostContent() {
        return false;
    }

    /**
     * Drops every stored proxy (available or disabled) expired at {@code now}, and housekeeps
     * expired tombstones and idempotency records. Called periodically by the owner: stores run no
     * background threads of their own.
     *
     * @return how many proxies were dropped
     * @param now the caller's wall-clock time
     */
    int purgeExpired(Instant now);

    /**
     * Records a health check (wall clock) of these proxies; a stored checkedAt never moves back.
     *
     * @return how many of the ids are stored
     * @param proxyIds  ids of the checked proxies; unknown ids are ignored
     * @param checkedAt when the check ran (wall clock); an older value than the stored one is ignored
     */
    int markChecked(Collection<String> proxyIds, Instant checkedAt);

    /**
     * {@link #markChecked(Collection, Instant)} of one proxy; false when it is not stored.
     *
     * @param proxyId   the checked proxy's id
     * @param checkedAt when the check ran (wall clock)
     * @return true if the proxy is stored
     */
    default boolean markChecked(String proxyId, Instant checkedAt) {
        return markChecked(List.of(proxyId), checkedAt) == 1;
    }

    /**
     * Holds proxies out of extraction until {@code until} because they are not HEALTHY (cooling,
     * probing, disabled by health) on some worker (docs/design.md#extraction, E11). The hold is a
     * lease: the owner renews it while the proxy stays unhealthy, so a hold whose owner died lapses
     * at {@code until}; a later call replaces the end. The proxy keeps its state, counts and listing.
     *
     * @param proxyIds ids of stored proxies; unknown ids are ignored
     * @param until    end of the hold (wall clock)
     * @return how many of the ids are stored
     */
    int markUnhealthy(Collection<String> proxyIds, Instant until);

    /**
     * Ends the holds of {@link #markUnhealthy}: the proxies are extractable again.
     *
     * @param proxyIds ids of stored proxies; unknown ids are ignored
     * @return how many of the ids are stored
     */
    int markHealthy(Collection<String> proxyIds);

    /**
     * Disables (never extractable) or re-enables a proxy; false when it is not stored.
     *
     * @param proxyId  a stored proxy's id
     * @param disabled true to disable, false to re-enable
     * @return true if the proxy is stored (also when its state did not change)
     */
    boolean setDisabled(String proxyId, boolean disabled);

    /**
     * Selects and extracts atomically; see the class rules and {@link ExtractionRequest}.
     *
     * @param request what to extract, how many and with what reserve; not null
     * @param now     the caller's wall-clock time: decides expiry and the TTL/health limits
     * @return the extracted proxies, now tombstoned, and the fulfillment
     */
    ExtractionResult extract(ExtractionRequest request, Instant now);

    /**
     * Claims {@code key} for a request whose body hashes to {@code fingerprint}, atomically: of many
     * concurrent callers exactly one gets {@link IdempotencyStart.Started}. A record whose retention
     * (completed) or in-progress timeout (started) has passed at {@code now} counts as absent.
     *
     * @param key         the client and its {@code Idempotency-Key}
     * @param fingerprint a hash of the request body; a reused key with another body is a conflict
     * @param now         the caller's wall-clock time
     * @return Started for the one caller that runs the request, else the replay, in-progress or conflict answer
     */
    IdempotencyStart beginIdempotent(IdempotencyKey key, String fingerprint, Instant now);

    /**
     * Stores the response of a started request, replayed until {@code now +}
     * {@link StoreSettings#idempotencyRetention()}. False (and nothing stored) when the key is held
     * for another fingerprint.
     *
     * @param key         the key claimed by {@link #beginIdempotent}
     * @param fingerprint the fingerprint it was claimed with
     * @param response    the serialized response to replay
     * @param now         the caller's wall-clock time
     * @return true if the response was stored
     */
    boolean completeIdempotent(IdempotencyKey key, String fingerprint, String response, Instant now);

    /**
     * Releases a started key after a failure so a retry can run; false when not held in progress with this fingerprint.
     *
     * @param key         the key claimed by {@link #beginIdempotent}
     * @param fingerprint the fingerprint it was claimed with
     * @return true if the claim was released
     */
    boolean abandonIdempotent(IdempotencyKey key, String fingerprint);

    /**
     * Available (not disabled) proxies of {@code upstream}, as stored.
     *
     * @param upstream an upstream name
     * @return the count, expired proxies included until purged; 0 for an unknown upstream
     */
    int available(String upstream);

    /**
     * Counts of every upstream that has stored proxies, as stored.
     *
     * @return upstream name to counts; a copy
     */
    Map<String, UpstreamCounts> countsByUpstream();

    /**
     * One stored proxy, in any state, with its state and last check.
     *
     * @param proxyId the proxy's id
     * @return the proxy, or empty when not stored
     */
    Optional<StoredProxy> get(String proxyId);

    /**
     * One page of stored proxies matching {@code query}, ascending by id.
     *
     * @param query which proxies; not null
     * @param page  where to start and how many
     * @return the page and the cursor of the next one
     */
    ProxyPage list(PoolQuery query, PageRequest page);

    /**
     * Whether {@code key} was extracted and its tombstone is still in force at {@code now}.
     *
     * @param key the proxy's dedupe identity
     * @param now the caller's wall-clock time
     * @return true while re-publishing the key would be skipped
     */
    boolean isTombstoned(ProxyKey key, Instant now);

    /**
     * Releases the store's resources; every later call throws {@link IllegalStateException}.
     */
    @Override
    void close();
}
