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
 *       available proxies {@linkplain ExtractionRequest#admits admitted} at {@code now}; no
 *       sampling shortfall is allowed.</li>
 *   <li><b>Which proxies</b> among the matching ones is the implementation's choice; the contract
 *       checks only that each one matches. {@link MemoryPoolStore} takes them in publish order.</li>
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
     */
    PublishResult upsert(Collection<Proxy> proxies, Instant now);

    /**
     * {@link #upsert} of one upstream's fetch result.
     *
     * @throws IllegalArgumentException when a proxy belongs to another upstream
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
                throw new IllegalArgumentException("proxy " + p.id() + " belongs to upstream '" + p.upstream()
                        + "', not '" + upstream + "'");
            }
        }
        return upsert(proxies, now);
    }

    /** Removes these proxies (any state) without tombstoning them; unknown ids are ignored. @return how many were removed */
    int remove(Collection<String> proxyIds);

    /**
     * Drops every stored proxy (available or disabled) expired at {@code now}, and housekeeps
     * expired tombstones and idempotency records. Called periodically by the owner: stores run no
     * background threads of their own.
     *
     * @return how many proxies were dropped
     */
    int purgeExpired(Instant now);

    /**
     * Records a health check (wall clock) of these proxies; a stored checkedAt never moves back.
     *
     * @return how many of the ids are stored
     */
    int markChecked(Collection<String> proxyIds, Instant checkedAt);

    /** {@link #markChecked(Collection, Instant)} of one proxy; false when it is not stored. */
    default boolean markChecked(String proxyId, Instant checkedAt) {
        return markChecked(List.of(proxyId), checkedAt) == 1;
    }

    /** Disables (never extractable) or re-enables a proxy; false when it is not stored. */
    boolean setDisabled(String proxyId, boolean disabled);

    /** Selects and extracts atomically; see the class rules and {@link ExtractionRequest}. */
    ExtractionResult extract(ExtractionRequest request, Instant now);

    /**
     * Claims {@code key} for a request whose body hashes to {@code fingerprint}, atomically: of many
     * concurrent callers exactly one gets {@link IdempotencyStart.Started}. A record whose retention
     * (completed) or in-progress timeout (started) has passed at {@code now} counts as absent.
     */
    IdempotencyStart beginIdempotent(IdempotencyKey key, String fingerprint, Instant now);

    /**
     * Stores the response of a started request, replayed until {@code now +}
     * {@link StoreSettings#idempotencyRetention()}. False (and nothing stored) when the key is held
     * for another fingerprint.
     */
    boolean completeIdempotent(IdempotencyKey key, String fingerprint, String response, Instant now);

    /** Releases a started key after a failure so a retry can run; false when not held in progress with this fingerprint. */
    boolean abandonIdempotent(IdempotencyKey key, String fingerprint);

    /** Available (not disabled) proxies of {@code upstream}, as stored. */
    int available(String upstream);

    /** Counts of every upstream that has stored proxies, as stored. */
    Map<String, UpstreamCounts> countsByUpstream();

    Optional<StoredProxy> get(String proxyId);

    /** One page of stored proxies matching {@code query}, ascending by id. */
    ProxyPage list(PoolQuery query, PageRequest page);

    /** Whether {@code key} was extracted and its tombstone is still in force at {@code now}. */
    boolean isTombstoned(ProxyKey key, Instant now);

    @Override
    void close();
}
