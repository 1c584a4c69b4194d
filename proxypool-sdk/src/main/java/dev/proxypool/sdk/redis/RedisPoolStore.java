package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.ExtractedProxy;
import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.Fulfillment;
import dev.proxypool.core.extract.PageRequest;
import dev.proxypool.core.extract.PoolQuery;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.ProxyPage;
import dev.proxypool.core.extract.PublishResult;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.extract.StoredProxy;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.stream.Stream;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The {@link PoolStore} on Redis, for pools shared by several workers (docs/design.md#extraction, docs/architecture.md#storage). Every rule of
 * the SPI holds across processes because each state change is one Lua script, run atomically by
 * Redis: selection plus AVAILABLE → EXTRACTED plus tombstone ({@code extract.lua}), tombstone and
 * duplicate check plus insert ({@code publish.lua}), and so on. The key layout — a fixed set of
 * keys per pool (one record hash, the available and disabled sets, a lexicographic index sorted set
 * of the available proxies by {@code term|id}, expiry and tombstone sorted sets, key holders,
 * per-upstream counters, the id listing, the pending index cleanups) plus the idempotency records
 * — is documented in
 * {@code src/main/resources/redis/common.lua} and {@link RedisKeys}; each script's header lists its
 * KEYS, ARGV and complexity. Every script takes every key it touches in {@code KEYS}.
 *
 * <p><b>Extraction never scans the pool.</b> The common case ({@code extract_fast.lua}, a function
 * with only the keys and arguments it needs) pops the set of available ids without a filter, or the
 * set of the filter's one set term ({@code SPOP}: an upstream, a protocol, a declared label or a
 * combination of declared labels); anything else, and a fast call that extracted nothing, runs
 * {@code extract.lua}: windows of the filter's range of the lexicographic index from a random id,
 * each candidate tested for availability, the other terms, TTL and health; only when sampling falls
 * short does it walk the base to prove the count exact. The reserve's total is {@code SCARD} of the
 * available set minus a {@code ZCOUNT} of expired members, O(log n). An extracted proxy's index
 * members and other set memberships are removed later, by {@link #purgeExpired} or a publish of the
 * same id (lazy cleanup: readers skip ids that are not available).
 *
 * <p><b>Scripts</b> are loaded once as one Redis Functions library ({@code FUNCTION LOAD},
 * {@link RedisLibrary}: the helpers of {@code common.lua} are created once, not per call) and called
 * by {@code FCALL}; when Redis lost it (restart, a fresh node, {@code FUNCTION FLUSH}) the call loads
 * it and retries once, transparently. The idempotency scripts are called by SHA ({@code EVALSHA},
 * reloaded the same way on {@code NOSCRIPT}). The
 * connections, scripts and error classification are {@link RedisAccess}'s, shared with the other
 * Redis users of the SDK.
 *
 * <p><b>Failures.</b> A slow or dead Redis surfaces as {@link StoreUnavailableException} within the
 * configured timeouts: at most about {@code 2 x (connectTimeout + socketTimeout)} (waiting for a
 * pooled connection, one read, and the replacement connection the pool opens in the caller's
 * thread after a broken one). Nothing is retried, and an extraction is never half done
 * (the script is atomic). When the reply of an extraction is lost after Redis ran it, its proxies
 * are extracted but not delivered: they have left the pool and are tombstoned — the safe side of
 * "never twice".
 *
 * <p><b>Time</b> is the caller's, at millisecond precision: instants are compared as epoch
 * milliseconds; tombstones are scored by their end and dropped by {@link #purgeExpired} once ended
 * at the given {@code now}. Idempotency records live in a
 * few hashes and sorted sets named in each script's {@code KEYS}; {@link #purgeExpired} drops the
 * dead ones and the size cap evicts the oldest started.
 *
 * <p><b>Deployment.</b> A single Redis (or a primary with replicas). The pool's keys share the hash
 * tag {@code {<keyPrefix>0}} and the idempotency records {@code {<keyPrefix>i}}, so every script
 * touches one Redis Cluster slot (shard 0 of a pool that a later version partitions). A Redis
 * holding keys of the previous layout under the prefix is refused at start
 * ({@link PreviousLayoutException}).
 *
 * <p><b>Coalescing.</b> Count=1 extractions on the fast path, the Distribution API's common call, run
 * at most {@value #FAST_CALLS_IN_FLIGHT} calls at once: the requests that arrive while all are under
 * way wait and go together, up to {@value #FAST_BATCH}, into the next call ({@link Coalescer}), each
 * with its own filter, TTL and time, each answered alone. A caller alone never waits; under load one
 * call serves several requests, so Redis pays the call's setup and I/O once for them. A request
 * waits for its turn at most the connect timeout (what a caller waited for a pooled connection
 * before), then fails retryably without having been sent.
 *
 * <p>Thread-safe: calls share a pool of connections and hold no lock in the JVM. Runs no threads of
 * its own; the owner calls {@link #purgeExpired} periodically.
 */
public final class RedisPoolStore extends RedisStoreBase {

    /** Proxies per publish script call: one call stays well under a millisecond per hundred. */
    static final int PUBLISH_BATCH = 500;
    /** Expired available proxies an extraction drops when it meets one (extract.lua, step 7). */
    static final int EXTRACT_PURGE_BOUND = 100;
    /** Most ids one listing page examines. */
    static final int LIST_SCAN_CAP = 5000;
    /**
     * Count=1 fast-path calls a store runs at once: one running in Redis, one waiting there, and one
     * in the client between a reply and the next call (waking the caller that sends it), so Redis does
     * not idle while a busy client turns a call around; the requests arriving meanwhile queue and go
     * together in the next call ({@link Coalescer}, docs/architecture.md "Coalescing").
     */
    static final int FAST_CALLS_IN_FLIGHT = 3;
    /** Most count=1 requests one fast-path call serves. */
    static final int FAST_BATCH = 32;
    /** Most dead idempotency records dropped per purge. */
    static final int IDEMPOTENCY_PURGE_WINDOW = 1000;

    static final RedisScript PUBLISH = RedisScript.withPrelude("/redis/common.lua", "/redis/publish.lua");
    static final RedisScript EXTRACT = RedisScript.withPrelude("/redis/common.lua", "/redis/extract.lua");
    /** The common extraction with only the keys and arguments it needs, called before EXTRACT (fastCall). */
    static final RedisScript EXTRACT_FAST = RedisScript.resource("/redis/extract_fast.lua");

    static final RedisScript PURGE = RedisScript.withPrelude("/redis/common.lua", "/redis/purge.lua");
    static final RedisScript LIST = RedisScript.withPrelude("/redis/common.lua", "/redis/list.lua");
    static final RedisScript TOMBSTONED = RedisScript.withPrelude("/redis/common.lua", "/redis/tombstoned.lua");
    /** The pool's own scripts, those over common.lua. */
    static final List<RedisScript> POOL_SCRIPTS = List.of(
            PUBLISH,
            EXTRACT,
            EXTRACT_FAST,
            REMOVE,
            PURGE,
            MARK_CHECKED,
            MARK_HEALTH,
            SET_DISABLED,
            COUNTS,
            LIST,
            GET,
            TOMBSTONED);

    private static final List<RedisScript> ALL = Stream.concat(
                    POOL_SCRIPTS.stream(),
                    Stream.of(
                            RedisIdempotency.BEGIN,
                            RedisIdempotency.COMPLETE,
                            RedisIdempotency.ABANDON,
                            RedisIdempotency.PURGE))
            .toList();

    /** The pool scripts (common.lua's) as one Redis Functions library: FCALL (RedisLibrary). */
    static final RedisLibrary LIBRARY = RedisLibrary.of("/redis/common.lua", POOL_SCRIPTS);

    private final RedisKeys keys;
    private final StoreSettings settings;
    /** Every set term this store has published or been told of by the purge (the sets purge.lua cleans). */
    private final Set<String> setTerms = ConcurrentHashMap.newKeySet();
    /**
     * The count=1 extractions on the fast path, coalesced: at most {@value #FAST_CALLS_IN_FLIGHT}
     * calls at once, the requests that arrive meanwhile served together by the next one.
     */
    private final Coalescer<FastOne, Object> oneEach;

    private RedisPoolStore(RedisAccess redis, String keyPrefix, StoreSettings settings, Duration maxQueued) {
        RedisKeys keys = new RedisKeys(keyPrefix);
        super(redis, List.of(keys), settings);
        this.keys = keys;
        this.settings = settings;
        this.oneEach = fastCoalescer("Redis " + redis, maxQueued, this::extractOneEach);
    }

    /**
     * The coalescer of count=1 fast-path extractions on {@code where} (a store, or a cluster's
     * shard): {@value #FAST_CALLS_IN_FLIGHT} calls in flight, {@value #FAST_BATCH} requests a call,
     * and a request that waited {@code maxQueued} (the connect timeout: what a caller waited for a
     * pooled connection before) fails retryably, never sent.
     */
    static <R> Coalescer<FastOne, R> fastCoalescer(
            String where, Duration maxQueued, Function<List<FastOne>, List<R>> call) {
        return new Coalescer<>(
                FAST_CALLS_IN_FLIGHT,
                FAST_BATCH,
                maxQueued,
                () -> new RedisUnavailableException(
                        RedisFailure.TIMEOUT,
                        where + " is unavailable (timeout): an extraction waited " + maxQueued.toMillis()
                                + " ms for its turn (the calls ahead of it are slow)",
                        null,
                        RedisUnavailableException.ScriptRun.NOT_RUN,
                        null),
                call);
    }

    /**
     * Connects and loads the scripts.
     *
     * @throws StoreUnavailableException when Redis cannot be reached within the timeouts
     */
    public static RedisPoolStore connect(RedisStoreConfig config, StoreSettings settings) {
        if (config == null || settings == null) {
            throw new IllegalArgumentException("redis store needs a config and store settings");
        }
        RedisAccess redis = RedisAccess.open(config, "store", config.maxConnections());
        try {
            redis.load(ALL);
            redis.useLibrary(LIBRARY);
            refusePreviousLayout(redis, new RedisKeys(config.keyPrefix()));
        } catch (RuntimeException e) {
            redis.close();
            throw e;
        }
        return new RedisPoolStore(redis, config.keyPrefix(), settings, config.connectTimeout());
    }

    /**
     * Refuses to start over data of the previous key layout (per-proxy keys under the bare prefix,
     * before every key moved into {@code KEYS} under one hash tag): this version would not see
     * those proxies, and silently serving an empty pool beside them would lose their tombstones.
     * One {@code EXISTS} of the previous layout's fixed keys, then a {@code SCAN} for its per-proxy
     * keys (a pass over the keyspace at start only).
     *
     * @throws PreviousLayoutException when such keys exist
     */
    private static void refusePreviousLayout(RedisAccess redis, RedisKeys keys) {
        String found = redis.call(c -> {
            List<String> fixed = keys.previousLayoutKeys();
            if (c.exists(fixed.toArray(String[]::new)) > 0) {
                for (String k : fixed) {
                    if (c.exists(k)) {
                        return k;
                    }
                }
            }
            ScanParams params =
                    new ScanParams().match(keys.previousLayoutPattern()).count(1000);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = c.scan(cursor, params);
                if (!page.getResult().isEmpty()) {
                    return page.getResult().get(0);
                }
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            return null;
        });
        if (found != null) {
            throw new PreviousLayoutException(redis.toString(), keys.prefix(), keys.poolTag(), found);
        }
    }

    /** The key prefix the store's keys are built from (pool keys start with {@code {<keyPrefix>0}:}). */
    public String keyPrefix() {
        return keys.prefix();
    }

    @Override
    public PublishResult upsert(Collection<Proxy> proxies, Instant now) {
        checkOpen();
        List<Proxy> all = new ArrayList<>(proxies.size());
        for (Proxy p : proxies) {
            if (p == null) {
                throw new IllegalArgumentException("proxies must not contain null");
            }
            all.add(p);
        }
        long[] sum = new long[5];
        String nowMs = Long.toString(ProxyCodec.millis(now));
        for (int from = 0; from < all.size(); from += PUBLISH_BATCH) {
            List<String> args = new ArrayList<>();
            Set<String> terms = new TreeSet<>();
            publishBatch(all.subList(from, Math.min(all.size(), from + PUBLISH_BATCH)), nowMs, settings, args, terms);
            setTerms.addAll(terms);
            List<?> r = RedisReplies.list(redis.eval(PUBLISH, keys.withSets(terms), args));
            for (int i = 0; i < 5; i++) {
                sum[i] += RedisReplies.number(r.get(i));
            }
        }
        return new PublishResult((int) sum[0], (int) sum[1], (int) sum[2], (int) sum[3], (int) sum[4]);
    }

    /**
     * The ARGV of publish.lua for {@code batch} (into {@code args}) and the set terms its proxies
     * have (into {@code terms}: the sets its KEYS must name, {@link RedisKeys#withSets}).
     */
    static void publishBatch(
            List<Proxy> batch, String nowMs, StoreSettings settings, List<String> args, Set<String> terms) {
        args.add(nowMs);
        args.add(ProxyCodec.indexTag(settings));
        args.add(Long.toString(settings.tombstoneRetentionForNoExpiry().toMillis()));
        for (Proxy p : batch) {
            ProxyCodec.publishArgs(p, settings, args);
            terms.addAll(ProxyCodec.setTerms(p, settings));
        }
    }

    /**
     * Runs purge.lua on the pool of {@code keys} until it reports nothing more, passing the sets
     * of every term in {@code known} and learning the terms it reports it lacked (the sets of ids
     * published by another process, or before a restart), and checking under {@code indexTag}
     * whether a mixed pool is indexed alike again (common.lua {@code index_check}); returns the
     * proxies dropped. {@code settings}: the index tag and the tombstone retention of the proxies
     * without expiry the fast path retired (T y, collected first).
     */
    static long purgePool(RedisAccess redis, RedisKeys keys, String nowMs, Set<String> known, StoreSettings settings) {
        long dropped = 0;
        List<String> args = List.of(
                nowMs,
                Integer.toString(ID_BATCH),
                ProxyCodec.indexTag(settings),
                Long.toString(settings.tombstoneRetentionForNoExpiry().toMillis()));
        for (int calls = 0; ; calls++) {
            List<?> r = RedisReplies.list(redis.eval(PURGE, keys.withSets(List.copyOf(known)), args));
            dropped += RedisReplies.number(r.get(0));
            boolean learned = false;
            for (int i = 2; i < r.size(); i++) {
                learned |= known.add(RedisReplies.string(r.get(i)));
            }
            if (RedisReplies.number(r.get(1)) != 1 && !learned) {
                return dropped;
            }
            if (calls > 100_000) {
                throw new IllegalStateException("purge of " + keys.poolTag() + " does not finish");
            }
        }
    }

    @Override
    public int purgeExpired(Instant now) {
        checkOpen();
        long dropped = purgePool(redis, keys, Long.toString(ProxyCodec.millis(now)), setTerms, settings);
        idempotency().purge(now);
        return (int) dropped;
    }

    @Override
    public ExtractionResult extract(ExtractionRequest request, Instant now) {
        checkOpen();
        String mode = request.fulfillment() == Fulfillment.ALL_OR_NOTHING ? "1" : "0";
        if (request.count() == 1) { // the common call: coalesced with the concurrent ones (oneEach)
            Optional<FastOne> one = fastOne(keys, request, now, settings, mode, request.gatewayReserve());
            if (one.isPresent()) {
                Object record = oneEach.submit(one.get());
                if (record != null) {
                    return new ExtractionResult.Extracted(
                            List.of(new ExtractedProxy(ProxyCodec.decode(RedisReplies.string(record)), now)));
                }
            }
        } else {
            Optional<FastCall> fast =
                    fastCall(keys, request, now, settings, request.count(), mode, request.gatewayReserve());
            if (fast.isPresent()) {
                List<?> r = RedisReplies.list(
                        redis.eval(EXTRACT_FAST, fast.get().keys(), fast.get().args()));
                if (RedisReplies.number(r.get(0)) == 3) {
                    return new ExtractionResult.Extracted(extracted(r, 1, now));
                }
            }
        }
        List<String> args = extractArgs(request, now, settings, request.count(), mode, request.gatewayReserve());
        countGeneralCall();
        List<?> r = RedisReplies.list(redis.eval(EXTRACT, extractKeys(keys, request, settings), args));
        if (RedisReplies.number(r.get(0)) == 0) {
            return new ExtractionResult.Insufficient((int) RedisReplies.number(r.get(1)));
        }
        return new ExtractionResult.Extracted(extracted(r, 1, now));
    }

    /** How the count=1 extractions on the fast path were served since the store was opened. */
    public ExtractionCoalescing coalescing() {
        return ExtractionCoalescing.of(List.of(oneEach));
    }

    /** The coalescer of the count=1 fast-path extractions (its calls and requests, for tests). */
    Coalescer<FastOne, Object> oneEach() {
        return oneEach;
    }

    /**
     * One call of extract_fast.lua for the count=1 requests of {@code batch}: each one's stored
     * value, or null for one it did not serve (that request goes on to extract.lua).
     */
    private List<Object> extractOneEach(List<FastOne> batch) {
        FastCall call = fastCallOf(keys, batch);
        return answersOf(redis.eval(EXTRACT_FAST, call.keys(), call.args()), batch.size());
    }

    /**
     * Each request's record in a count=1 reply of extract_fast.lua, or null where it served none: the
     * reply to one request is bare (its record, or nil), to several {@code {3, record or nil...}} or
     * {@code {0}}.
     */
    static List<Object> answersOf(Object reply, int requests) {
        if (!(reply instanceof List<?> list)) {
            if (requests != 1) {
                throw new IllegalStateException( // not the value: a record names a proxy's address
                        "extract_fast.lua answered " + requests + " requests with one value, not a table");
            }
            return Collections.singletonList(reply);
        }
        List<Object> out = new ArrayList<>(requests);
        boolean served = RedisReplies.number(list.get(0)) == 3;
        for (int i = 1; i <= requests; i++) {
            out.add(served ? list.get(i) : null);
        }
        return out;
    }

    /**
     * The KEYS of extract.lua for {@code request}: the pool's and the reservation keys, then, when its
     * filter has set terms ({@link ProxyCodec#setTermsFor}), the set of the narrowest: on a pool indexed
     * alike an empty one proves at once that nothing matches (a combination that ran dry).
     */
    static List<String> extractKeys(RedisKeys keys, ExtractionRequest request, StoreSettings settings) {
        ExtractionFilter filter = request.filter();
        List<String> terms = ProxyCodec.setTermsFor(
                filter.upstream(),
                filter.protocol().map(p -> p.wireName()),
                filter.labels().required(),
                settings);
        return terms.isEmpty() ? keys.withReservations() : keys.withSets(terms.subList(0, 1));
    }

    /** The ARGV of extract.lua (its header) for {@code count} proxies in {@code mode} ('1', '0' or 'r'). */
    static List<String> extractArgs(
            ExtractionRequest request, Instant now, StoreSettings settings, int count, String mode, int reserve) {
        List<String> args = new ArrayList<>(16);
        args.add(Long.toString(ProxyCodec.millis(now)));
        args.add(Integer.toString(count));
        args.add(mode);
        args.add(Integer.toString(reserve));
        args.add(Long.toString(request.minRemainingTtl().toMillis()));
        args.add(Long.toString(request.maxHealthAge().toMillis()));
        args.add(Long.toString(settings.tombstoneRetentionForNoExpiry().toMillis()));
        args.add(Integer.toString(EXTRACT_PURGE_BOUND));
        args.add(
                Integer.toString(ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE))); // the script's sampling seed
        int terms = args.size();
        addTerms(request.filter(), args);
        // the composite term of the declared dimensions the filter names: its range holds only matches
        Optional<String> composite =
                ProxyCodec.compositeFor(request.filter().labels().required(), settings.indexDimensions());
        if (composite.isPresent()) {
            args.add("c");
            args.add(composite.get().substring(2));
            args.add("");
            args.set(terms, Integer.toString(Integer.parseInt(args.get(terms)) + 1));
        }
        args.add(ProxyCodec.indexTag(settings));
        return args;
    }

    /** The KEYS and ARGV of one extract_fast.lua call. */
    record FastCall(List<String> keys, List<String> args) {}

    /**
     * One count=1 request as extract_fast.lua reads it: the key it pops (its filter's first set, or
     * the available set), its arguments (now, minRemainingTtl, the tombstone end of a proxy without
     * expiry, the first set term or '', the number of its other set terms and those terms), and what
     * the call's header takes of it.
     */
    record FastOne(String popped, List<String> args, long nowMillis, int reserve) {}

    /**
     * The call of extract_fast.lua (its header) for {@code count} proxies in {@code mode} on the pool
     * of {@code keys}, when the request is its case ({@link #fastTerms}); else empty (extract.lua
     * only). Count 1 is the call of a batch of one ({@link #fastOne}, {@link #fastCallOf}). When it
     * answers {@code {0}} the caller runs extract.lua: nothing was extracted.
     */
    static Optional<FastCall> fastCall(
            RedisKeys keys,
            ExtractionRequest request,
            Instant now,
            StoreSettings settings,
            int count,
            String mode,
            int reserve) {
        if (count == 1) {
            return fastOne(keys, request, now, settings, mode, reserve).map(one -> fastCallOf(keys, List.of(one)));
        }
        Optional<List<String>> fastTerms = fastTerms(request, settings, count, mode);
        if (fastTerms.isEmpty()) {
            return Optional.empty();
        }
        List<String> terms = fastTerms.get();
        List<String> k = poolKeys(keys, 7);
        if (!terms.isEmpty()) {
            k.add(keys.set(terms.get(0))); // popped; the others are tested on each candidate
        }
        long ms = ProxyCodec.millis(now);
        List<String> args = new ArrayList<>(8);
        args.add(Long.toString(ms));
        args.add(Integer.toString(count));
        args.add(Long.toString(request.minRemainingTtl().toMillis()));
        args.add(Long.toString(ms + settings.tombstoneRetentionForNoExpiry().toMillis()));
        args.add(terms.isEmpty() ? "" : terms.get(0));
        if (reserve != 0) { // kept by the script when the pool is provably above it, else extract.lua counts
            k.add(keys.poolTag() + "xa");
        }
        if (reserve != 0 || terms.size() > 1) { // ARGV[6] the reserve ('0': none), then the other terms
            args.add(Integer.toString(reserve));
            if (terms.size() > 1) {
                args.addAll(terms.subList(1, terms.size()));
            }
        }
        return Optional.of(new FastCall(List.copyOf(k), List.copyOf(args)));
    }

    /**
     * A count=1 request as extract_fast.lua reads it, when it is the script's case
     * ({@link #fastTerms}); else empty.
     */
    static Optional<FastOne> fastOne(
            RedisKeys keys, ExtractionRequest request, Instant now, StoreSettings settings, String mode, int reserve) {
        return fastTerms(request, settings, 1, mode).map(terms -> {
            long ms = ProxyCodec.millis(now);
            List<String> args = new ArrayList<>(5 + Math.max(0, terms.size() - 1));
            args.add(Long.toString(ms));
            args.add(Long.toString(request.minRemainingTtl().toMillis()));
            args.add(Long.toString(ms + settings.tombstoneRetentionForNoExpiry().toMillis()));
            args.add(terms.isEmpty() ? "" : terms.get(0));
            args.add(Integer.toString(Math.max(0, terms.size() - 1)));
            if (terms.size() > 1) {
                args.addAll(terms.subList(1, terms.size()));
            }
            String popped = terms.isEmpty() ? keys.poolTag() + "a" : keys.set(terms.get(0));
            return new FastOne(popped, List.copyOf(args), ms, reserve);
        });
    }

    /**
     * The extract_fast.lua call serving the count=1 requests of {@code batch}, in their order: each
     * its key and arguments, the latest {@code now} of them for the header's expired count, and the
     * largest reserve (a batch kept above it keeps every request's).
     */
    static FastCall fastCallOf(RedisKeys keys, List<FastOne> batch) {
        List<String> k = poolKeys(keys, 7 + batch.size());
        List<String> args = new ArrayList<>(4 + 6 * batch.size());
        long now = Long.MIN_VALUE;
        int reserve = 0;
        for (FastOne one : batch) {
            k.add(one.popped());
            now = Math.max(now, one.nowMillis());
            reserve = Math.max(reserve, one.reserve());
        }
        args.add(Long.toString(now));
        args.add("1");
        args.add(Integer.toString(batch.size()));
        args.add(Integer.toString(reserve));
        for (FastOne one : batch) {
            args.addAll(one.args());
        }
        if (reserve != 0) {
            k.add(keys.poolTag() + "xa");
        }
        return new FastCall(List.copyOf(k), List.copyOf(args));
    }

    /** The six keys every extract_fast.lua call starts with (T r, f, a, g, n, y), in a list of room {@code capacity}. */
    private static List<String> poolKeys(RedisKeys keys, int capacity) {
        List<String> k = new ArrayList<>(capacity);
        for (String name : List.of("r", "f", "a", "g", "n", "y")) {
            k.add(keys.poolTag() + name);
        }
        return k;
    }

    /**
     * The set terms of the request's filter, the first the one popped ({@link ProxyCodec#setTermsFor}:
     * e.g. labels of the declared dimensions and an upstream; the others tested on each candidate), when
     * the request is extract_fast.lua's case: partial or allOrNothing ('0' or '1'), no maxHealthAge,
     * count at most {@link #FAST_PATH_MAX_COUNT}, and no filter (no terms) or a filter of set terms
     * only; else empty. A gateway reserve adds the expiry set to the keys and the reserve to the
     * arguments: the script goes on only when the pool is provably above it after the extraction.
     */
    private static Optional<List<String>> fastTerms(
            ExtractionRequest request, StoreSettings settings, int count, String mode) {
        ExtractionFilter filter = request.filter();
        boolean unfiltered = filter.upstream().isEmpty()
                && filter.protocol().isEmpty()
                && filter.labels().required().isEmpty();
        List<String> terms = ProxyCodec.setTermsFor(
                filter.upstream(),
                filter.protocol().map(p -> p.wireName()),
                filter.labels().required(),
                settings);
        if (!(mode.equals("0") || mode.equals("1"))
                || !request.maxHealthAge().isZero()
                || count > FAST_PATH_MAX_COUNT
                || !(unfiltered || !terms.isEmpty())) {
            return Optional.empty();
        }
        return Optional.of(terms);
    }

    /** Most proxies one extraction takes on the fast path (extract_fast.lua). */
    static final int FAST_PATH_MAX_COUNT = 1000;

    /** The extracted proxies of a script reply whose records start at index {@code from}. */
    static List<ExtractedProxy> extracted(List<?> reply, int from, Instant now) {
        List<ExtractedProxy> out = new ArrayList<>(Math.max(0, reply.size() - from));
        for (int i = from; i < reply.size(); i++) {
            out.add(new ExtractedProxy(ProxyCodec.decode(RedisReplies.string(reply.get(i))), now));
        }
        return out;
    }

    /** Filter terms as the scripts read them: a count, then (kind, a, b) triples. */
    static void addTerms(ExtractionFilter filter, List<String> args) {
        int at = args.size();
        args.add("");
        int n = 0;
        if (filter.upstream().isPresent()) {
            args.add("u");
            args.add(filter.upstream().get());
            args.add("");
            n++;
        }
        if (filter.protocol().isPresent()) {
            args.add("p");
            args.add(filter.protocol().get().wireName());
            args.add("");
            n++;
        }
        for (Map.Entry<String, String> term : filter.labels().required().entrySet()) {
            args.add("l");
            args.add(term.getKey());
            args.add(term.getValue());
            n++;
        }
        args.set(at, Integer.toString(n));
    }

    @Override
    public ProxyPage list(PoolQuery query, PageRequest page) {
        checkOpen();
        List<String> args = new ArrayList<>(16);
        args.add(page.afterId().orElse(""));
        args.add(Integer.toString(page.limit()));
        args.add(Integer.toString(LIST_SCAN_CAP));
        args.add(query.state().map(s -> s.wireName()).orElse(""));
        addTerms(query.filter(), args);
        List<?> r = RedisReplies.list(redis.eval(LIST, keys.pool(), args));
        List<StoredProxy> proxies = new ArrayList<>(r.size() - 1);
        for (int i = 1; i < r.size(); i++) {
            proxies.add(stored(RedisReplies.list(r.get(i))));
        }
        String next = RedisReplies.string(r.get(0));
        return new ProxyPage(proxies, next.isEmpty() ? PageRequest.FIRST : PageRequest.cursorAfter(next));
    }

    @Override
    public boolean isTombstoned(ProxyKey key, Instant now) {
        checkOpen();
        return tombstoned(redis, keys, key, now, settings);
    }

    /**
     * Whether {@code key} is tombstoned at {@code now} in the pool of {@code keys}: its end in the
     * tombstone set, or kept by its extracted holder until collected (tombstoned.lua).
     */
    static boolean tombstoned(RedisAccess redis, RedisKeys keys, ProxyKey key, Instant now, StoreSettings settings) {
        Object ends = redis.eval(
                TOMBSTONED,
                keys.pool(),
                List.of(
                        RedisKeys.physical(key),
                        Long.toString(ProxyCodec.millis(now)),
                        Long.toString(settings.tombstoneRetentionForNoExpiry().toMillis())));
        return ((Number) ends).longValue() >= 0;
    }

    @Override
    public String toString() {
        return "RedisPoolStore[" + redis + " keyPrefix=" + keys.prefix() + "]";
    }
}
