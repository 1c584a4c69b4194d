package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.ExtractedProxy;
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
import dev.proxypool.core.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import redis.clients.jedis.params.SetParams;

/**
 * The {@link PoolStore} on Redis Cluster (config {@code store.type: redis-cluster}): the pool is
 * partitioned into {@code store.shards} shards, each the fourteen keys of the single-node layout
 * under its own hash tag {@code {<keyPrefix><n>}} (one slot, hence one master, per shard), and the
 * same scripts run on each ({@code redis/common.lua}). A proxy's shard is a CRC-32 of its physical
 * key (protocol/host/port/credentialRef) modulo the shards, so its record, index members, key
 * holder and tombstone share a tag and one script sees them all: publish, tombstone and duplicate
 * rules hold per shard exactly as on one node. Idempotency records live under
 * {@code {<keyPrefix>i}}, their own slot.
 *
 * <p><b>Extraction across shards.</b> {@code partial}: the shards in a random order, each giving
 * what it can atomically ({@code extract.lua}) until the count is met; a failed shard is skipped
 * when the others fill the count, else the call fails retryably rather than answering short. {@code allOrNothing}: first
 * one random shard for the whole count (atomic, the common case); when it falls short, a
 * reservation on each shard in a random order ({@code extract.lua} in reserve mode: the proxies
 * leave AVAILABLE under a token with a deadline), then {@code commit.lua} on each when the total
 * is met, else {@code release.lua}. A reservation whose caller died returns to AVAILABLE once its
 * deadline passed ({@link #purgeExpired}, or the next reservation on that shard); a committed
 * proxy never returns. A gateway reserve is a rule over all shards: extractions with a reserve
 * take turns under a lock ({@code {<keyPrefix>l}:reserve}, {@code SET NX PX}), read the shards'
 * totals ({@code total.lua}) and extract at most the total above the reserve; extractions
 * without a reserve (the default, {@code distribution.gatewayReserve: 0}) take no lock. A count=1
 * extraction on a shard's fast path is coalesced with the shard's concurrent ones as on one node
 * ({@link RedisPoolStore}, "Coalescing"): one call and one {@code WAIT} for the requests that
 * arrive together, each answered alone; when that call runs without enough acknowledgements each
 * request fails with its own part of the reply, so the undelivered count stays exact.
 *
 * <p><b>Durability.</b> Every script that extracts runs followed by {@code WAIT waitReplicas
 * waitTimeout} on the same connection ({@link RedisAccess#evalDurably}); fewer acknowledgements
 * fail the call with {@link StoreUnavailableException} (the API answers 503, retryable): those
 * proxies are extracted but not delivered, the safe side of "never twice", rather than handed
 * out while a failover could hand them out again. Proxies extracted and not delivered — too few
 * acknowledgements, a reply lost, proxies in hand when another shard's failure fails the call —
 * are never silent: counted ({@link #undeliveredProxies}, {@link #uncertainExtractions}) and
 * logged at WARNING. With {@code waitReplicas: 0} a failover right
 * after an extraction can lose it on the promoted replica, which then hands the proxy out again.
 *
 * <p><b>By id.</b> {@link #get}, {@link #remove}, {@link #setDisabled} and {@link #markChecked}
 * take ids, whose shard is unknown: they ask every shard (one script call each, per batch).
 * {@link #list} merges the shards' pages in id order. A proxy id is stored in the shard of its
 * key; an id republished with another physical key (never the case for ids derived from the key)
 * would be stored in both shards until removed.
 *
 * <p>Thread-safe; runs no threads of its own.
 */
public final class RedisClusterPoolStore extends RedisStoreBase {

    private static final System.Logger LOG = System.getLogger(RedisClusterPoolStore.class.getName());

    /** How long a shard's durability from its last extraction stands before {@link #durability()} reads its master. */
    static final Duration DURABILITY_FRESH = Duration.ofSeconds(2);

    /** Ended reservations released per shard by one purge or reservation. */
    static final int RELEASE_BOUND = 100;

    static final RedisScript COMMIT = RedisScript.withPrelude("/redis/common.lua", "/redis/commit.lua");
    static final RedisScript RELEASE = RedisScript.withPrelude("/redis/common.lua", "/redis/release.lua");
    static final RedisScript TOTAL = RedisScript.withPrelude("/redis/common.lua", "/redis/total.lua");
    static final RedisScript LOCK_RELEASE = RedisScript.resource("/lock/lease_release.lua");
    /** The cluster's pool scripts over common.lua: the single store's and the reservation's own. */
    private static final List<RedisScript> POOL_SCRIPTS = Stream.concat(
                    RedisPoolStore.POOL_SCRIPTS.stream(), Stream.of(COMMIT, RELEASE, TOTAL))
            .toList();

    private static final List<RedisScript> ALL = Stream.concat(
                    POOL_SCRIPTS.stream(),
                    Stream.of(
                            LOCK_RELEASE,
                            RedisIdempotency.BEGIN,
                            RedisIdempotency.COMPLETE,
                            RedisIdempotency.ABANDON,
                            RedisIdempotency.PURGE))
            .toList();

    /** The pool scripts (common.lua's) as one Redis Functions library: FCALL (RedisLibrary). */
    static final RedisLibrary LIBRARY = RedisLibrary.of("/redis/common.lua", POOL_SCRIPTS);

    private final RedisClusterConfig config;
    private final StoreSettings settings;
    private final RedisKeys[] shards;
    private final Duration reservationTtl;
    private final String reserveLock;
    private final LongAdder undeliveredProxies = new LongAdder();
    private final LongAdder uncertainExtractions = new LongAdder();
    private final ShardDurability durability;
    /** Every set term this store has published or been told of by the purge, of any shard (RedisPoolStore#purgePool). */
    private final Set<String> setTerms = ConcurrentHashMap.newKeySet();
    /** This process's extractions with a gateway reserve, queued fairly before the Redis lock. */
    private final ReentrantLock localReserveTurn = new ReentrantLock(true);
    /**
     * Per shard, its count=1 fast-path extractions coalesced as RedisPoolStore's are: at most
     * {@link RedisPoolStore#FAST_CALLS_IN_FLIGHT} calls (each with its WAIT) at once, the requests
     * arriving meanwhile served together by the next one.
     */
    private final List<Coalescer<RedisPoolStore.FastOne, OneAnswer>> oneEach;

    private RedisClusterPoolStore(RedisAccess redis, RedisClusterConfig config, StoreSettings settings) {
        RedisKeys[] shards = new RedisKeys[config.shards()];
        for (int i = 0; i < shards.length; i++) {
            shards[i] = new RedisKeys(config.keyPrefix(), i);
        }
        super(redis, List.of(shards), settings); // shard 0 holds the idempotency records and the content mark
        this.config = config;
        this.settings = settings;
        this.shards = shards;
        this.reserveLock = "{" + config.keyPrefix() + "l}:reserve";
        // a live caller commits within a few round trips; one that died frees its proxies after this
        this.reservationTtl = config.socketTimeout().multipliedBy(4).plus(config.waitTimeout());
        this.durability =
                new ShardDurability(config.keyPrefix(), shards.length, config.waitReplicas(), Ticker.system());
        List<Coalescer<RedisPoolStore.FastOne, OneAnswer>> coalescers = new ArrayList<>(shards.length);
        for (int i = 0; i < shards.length; i++) {
            int shard = i;
            coalescers.add(RedisPoolStore.fastCoalescer(
                    "Redis Cluster " + redis + " (shard " + shard + ")",
                    config.connectTimeout(),
                    batch -> extractOneEach(shard, batch)));
        }
        this.oneEach = List.copyOf(coalescers);
    }

    /**
     * Connects (reads the cluster's topology from the seeds) and loads the scripts on every node.
     *
     * @throws StoreUnavailableException when no seed can be reached within the timeouts
     */
    public static RedisClusterPoolStore connect(RedisClusterConfig config, StoreSettings settings) {
        if (config == null || settings == null) {
            throw new IllegalArgumentException("redis-cluster store needs a config and store settings");
        }
        RedisAccess redis = RedisAccess.openCluster(config, "store", config.maxConnections());
        try {
            redis.load(ALL);
            redis.useLibrary(LIBRARY);
        } catch (RuntimeException e) {
            redis.close();
            throw e;
        }
        return new RedisClusterPoolStore(redis, config, settings);
    }

    /** The key prefix the store's keys are built from (shard n's keys start with {@code {<keyPrefix>n}:}). */
    public String keyPrefix() {
        return config.keyPrefix();
    }

    /** How many shards the pool has. */
    public int shards() {
        return shards.length;
    }

    /** The shard of a physical proxy: CRC-32 of {@code proto/host/port/credRef} modulo the shards. */
    public static int shardOf(ProxyKey key, int shards) {
        CRC32 crc = new CRC32();
        crc.update(RedisKeys.physical(key).getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % shards);
    }

    private RedisKeys keysOf(ProxyKey key) {
        return shards[shardOf(key, shards.length)];
    }

    @Override
    public PublishResult upsert(Collection<Proxy> proxies, Instant now) {
        checkOpen();
        Map<Integer, List<Proxy>> byShard = new LinkedHashMap<>();
        for (Proxy p : proxies) {
            if (p == null) {
                throw new IllegalArgumentException("proxies must not contain null");
            }
            byShard.computeIfAbsent(shardOf(p.key(), shards.length), s -> new ArrayList<>())
                    .add(p);
        }
        long[] sum = new long[5];
        String nowMs = Long.toString(ProxyCodec.millis(now));
        for (Map.Entry<Integer, List<Proxy>> e : byShard.entrySet()) {
            List<Proxy> all = e.getValue();
            for (int from = 0; from < all.size(); from += RedisPoolStore.PUBLISH_BATCH) {
                List<String> args = new ArrayList<>();
                Set<String> terms = new TreeSet<>();
                RedisPoolStore.publishBatch(
                        all.subList(from, Math.min(all.size(), from + RedisPoolStore.PUBLISH_BATCH)),
                        nowMs,
                        settings,
                        args,
                        terms);
                setTerms.addAll(terms);
                List<?> r =
                        RedisReplies.list(redis.eval(RedisPoolStore.PUBLISH, shards[e.getKey()].withSets(terms), args));
                for (int i = 0; i < 5; i++) {
                    sum[i] += RedisReplies.number(r.get(i));
                }
            }
        }
        return new PublishResult((int) sum[0], (int) sum[1], (int) sum[2], (int) sum[3], (int) sum[4]);
    }

    @Override
    public int purgeExpired(Instant now) {
        checkOpen();
        String nowMs = Long.toString(ProxyCodec.millis(now));
        long dropped = 0;
        for (RedisKeys shard : shards) {
            redis.eval(RELEASE, shard.withReservations(), List.of(nowMs, "", Integer.toString(RELEASE_BOUND)));
            dropped += RedisPoolStore.purgePool(redis, shard, nowMs, setTerms, settings);
        }
        idempotency().purge(now);
        return (int) dropped;
    }

    @Override
    public ExtractionResult extract(ExtractionRequest request, Instant now) {
        checkOpen();
        if (request.gatewayReserve() == 0) {
            return extract(request, now, request.count());
        }
        // the reserve is a rule over every shard: extractions with one take turns under a lock. This
        // process's callers queue fairly first, so only other processes compete for the Redis lock
        // (a spinning free-for-all starved some callers past their wait under load).
        takeLocalTurn();
        try {
            return extractUnderReserveLock(request, now);
        } finally {
            localReserveTurn.unlock();
        }
    }

    private void takeLocalTurn() {
        boolean turn;
        try {
            turn = localReserveTurn.tryLock(reserveWait().toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw reserveBusy(e);
        }
        if (!turn) {
            throw reserveBusy(null);
        }
    }

    private ExtractionResult extractUnderReserveLock(ExtractionRequest request, Instant now) {
        String holder = UUID.randomUUID().toString();
        lockReserve(holder);
        try {
            long total = 0;
            List<String> nowArg = List.of(Long.toString(ProxyCodec.millis(now)));
            for (RedisKeys shard : shards) {
                total += RedisReplies.number(redis.eval(TOTAL, shard.pool(), nowArg));
            }
            return extract(request, now, (int)
                    Math.max(0, Math.min(request.count(), total - request.gatewayReserve())));
        } finally {
            try {
                redis.eval(LOCK_RELEASE, List.of(reserveLock), List.of(holder));
            } catch (RuntimeException e) {
                // the lock lapses after its ttl
            }
        }
    }

    /** The longest wait for a turn under the reserve lock: the connect plus socket timeout. */
    private Duration reserveWait() {
        return config.connectTimeout().plus(config.socketTimeout());
    }

    private RedisUnavailableException reserveBusy(Throwable cause) {
        return new RedisUnavailableException(
                RedisFailure.BUSY,
                "Redis Cluster " + redis + " is unavailable (busy): extractions with a gateway reserve"
                        + " waited too long for their turn",
                cause);
    }

    /**
     * Takes the lock of extractions with a gateway reserve ({@code SET NX PX}), waiting at most
     * the connect plus socket timeout; a holder that died frees it after {@link #reservationTtl}.
     */
    private void lockReserve(String holder) {
        long until = System.nanoTime() + reserveWait().toNanos();
        long pause = 50_000; // ns, doubling to 5 ms
        SetParams params = SetParams.setParams().nx().px(reservationTtl.toMillis());
        while (!"OK".equals(redis.call(c -> c.set(reserveLock, holder, params)))) {
            if (System.nanoTime() > until) {
                throw reserveBusy(null);
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(5_000_000, pause * 2);
        }
    }

    private ExtractionResult extract(ExtractionRequest request, Instant now, int allowance) {
        boolean allOrNothing = request.fulfillment() == Fulfillment.ALL_OR_NOTHING;
        if (allowance == 0) {
            return allOrNothing ? new ExtractionResult.Insufficient(0) : new ExtractionResult.Extracted(List.of());
        }
        int[] order = randomOrder();
        if (!allOrNothing) {
            return partial(request, now, allowance, order);
        }
        if (allowance == request.count()) { // the common case: one shard has them all
            List<?> r;
            try {
                r = extractOn(order[0], request, now, allowance, "1");
            } catch (StoreUnavailableException e) {
                undeliveredBy(order[0], e, allowance);
                throw e;
            }
            if (RedisReplies.number(r.get(0)) != 0) { // 1, or 3 from the fast path
                return new ExtractionResult.Extracted(RedisPoolStore.extracted(r, 1, now));
            }
            if (shards.length == 1) {
                return new ExtractionResult.Insufficient((int) RedisReplies.number(r.get(1)));
            }
        }
        return acrossShards(request, now, allowance, order);
    }

    /**
     * Partial: each shard in {@code order} gives what it can until {@code allowance} is met. A shard
     * that fails is skipped: when its script may have extracted proxies that are not delivered
     * (reply lost, or too few replica acknowledgements) that is reported ({@link #undelivered}); when
     * the other shards still fill the count the caller gets it, else a retryable
     * {@link StoreUnavailableException} rather than a short answer that would look like an empty
     * pool, and the proxies already in hand are reported as not delivered too.
     */
    private ExtractionResult partial(ExtractionRequest request, Instant now, int allowance, int[] order) {
        List<ExtractedProxy> out = new ArrayList<>();
        RuntimeException failed = null;
        for (int s : order) {
            int left = allowance - out.size();
            if (left == 0) {
                break;
            }
            try {
                List<?> r = extractOn(s, request, now, left, "0");
                out.addAll(RedisPoolStore.extracted(r, 1, now));
            } catch (StoreUnavailableException e) {
                undeliveredBy(s, e, left);
                failed = e; // another shard may still fill the count
            } catch (RuntimeException e) {
                undelivered(out.size(), "a rejected extraction on shard " + s + " (" + e.getMessage() + ")");
                throw e;
            }
        }
        if (failed != null && out.size() < allowance) {
            undelivered(out.size(), "a short partial extraction after a failed shard (" + failed.getMessage() + ")");
            throw failed;
        }
        return new ExtractionResult.Extracted(out);
    }

    /**
     * allOrNothing over several shards: counts first (nothing changed) and answers insufficient
     * when the shards together fall short; else reserves on each in {@code order}, commits when
     * the total is met, releases otherwise.
     */
    private ExtractionResult acrossShards(ExtractionRequest request, Instant now, int allowance, int[] order) {
        int matching = 0;
        for (int s : order) {
            countGeneralCall();
            List<?> r = RedisReplies.list(redis.eval(
                    RedisPoolStore.EXTRACT,
                    RedisPoolStore.extractKeys(shards[s], request, settings),
                    RedisPoolStore.extractArgs(request, now, settings, allowance - matching, "c", 0)));
            matching += (int) RedisReplies.number(r.get(1));
            if (matching == allowance) {
                break;
            }
        }
        if (matching < request.count()) {
            return new ExtractionResult.Insufficient(matching);
        }
        String token = UUID.randomUUID().toString();
        long deadline = ProxyCodec.millis(now) + reservationTtl.toMillis();
        List<Integer> reserved = new ArrayList<>();
        int total = 0;
        int reserving = -1;
        try {
            for (int s : order) {
                if (total == allowance) {
                    break;
                }
                reserving = s;
                List<String> args = RedisPoolStore.extractArgs(request, now, settings, allowance - total, "r", 0);
                args.add(token);
                args.add(Long.toString(deadline));
                countGeneralCall();
                List<?> r = RedisReplies.list(redis.eval(
                        RedisPoolStore.EXTRACT, RedisPoolStore.extractKeys(shards[s], request, settings), args));
                int n = (int) RedisReplies.number(r.get(1));
                if (n > 0) {
                    reserved.add(s);
                    total += n;
                }
            }
        } catch (RuntimeException e) {
            // the failed shard too: a reservation whose reply was lost is released by its token
            // (nobody holds it), rather than left to its deadline
            List<Integer> release = new ArrayList<>(reserved);
            if (reserving >= 0 && !release.contains(reserving)) {
                release.add(reserving);
            }
            releaseQuietly(release, token, now);
            throw e;
        }
        if (total < request.count()) {
            releaseQuietly(reserved, token, now);
            return new ExtractionResult.Insufficient(total);
        }
        List<ExtractedProxy> out = new ArrayList<>(total);
        List<String> commitArgs = List.of(
                Long.toString(ProxyCodec.millis(now)),
                Long.toString(settings.tombstoneRetentionForNoExpiry().toMillis()),
                token);
        for (int i = 0; i < reserved.size(); i++) {
            int s = reserved.get(i);
            try {
                List<?> r = RedisReplies.list(durably(COMMIT, shards[s].withReservations(), commitArgs));
                out.addAll(RedisPoolStore.extracted(r, 0, now));
            } catch (RuntimeException e) {
                // this shard's commit too may be released: a commit that did not run leaves the
                // reservation, which returns to AVAILABLE; one that ran took it, and the release finds
                // nothing (a release is idempotent, and a late commit finds nothing released)
                releaseQuietly(reserved.subList(i, reserved.size()), token, now);
                if (e instanceof RedisUnavailableException u
                        && u.scriptRun() == RedisUnavailableException.ScriptRun.RAN_NOT_DURABLE) {
                    undeliveredBy(s, u, 0);
                } else if (!(e instanceof RedisUnavailableException u
                        && u.scriptRun() == RedisUnavailableException.ScriptRun.NOT_RUN)) {
                    uncertain(s, e, "up to its reservation");
                }
                undelivered(out.size(), "an allOrNothing commit that failed on shard " + s);
                throw e; // the shards committed before are extracted and not delivered: the safe side
            }
        }
        if (out.size() < request.count()) {
            // reserved proxies removed or disabled meanwhile, or a reservation that outlived its
            // deadline: what was committed is extracted but not delivered (never twice)
            undelivered(out.size(), "an allOrNothing commit that found fewer reserved proxies than the count");
            return new ExtractionResult.Insufficient(out.size());
        }
        return new ExtractionResult.Extracted(out);
    }

    private void releaseQuietly(List<Integer> reserved, String token, Instant now) {
        List<String> args = List.of(Long.toString(ProxyCodec.millis(now)), token, Integer.toString(RELEASE_BOUND));
        for (int s : reserved) {
            try {
                redis.eval(RELEASE, shards[s].withReservations(), args);
            } catch (RuntimeException e) {
                // its deadline releases it (purgeExpired)
            }
        }
    }

    /**
     * Reports what a shard's failed extracting script may have taken out of the pool without
     * delivering it: the exact count when it ran ({@code RAN_NOT_DURABLE}, its reply in hand), up to
     * {@code upTo} when its reply was lost, nothing when it did not run.
     */
    private void undeliveredBy(int shard, StoreUnavailableException e, int upTo) {
        if (!(e instanceof RedisUnavailableException u)) {
            uncertain(shard, e, "up to " + upTo);
            return;
        }
        switch (u.scriptRun()) {
            case NOT_RUN -> {}
            case UNKNOWN -> uncertain(shard, e, "up to " + upTo);
            case RAN_NOT_DURABLE -> {
                int n = 0;
                try {
                    List<?> r = RedisReplies.list(u.reply());
                    // extract.lua: {1, record...} extracted (else nothing taken); extract_fast.lua: {3,
                    // record...} extracted, {0} nothing; commit.lua: {record...}
                    if (!r.isEmpty() && r.get(0) instanceof Long status) {
                        n = status == 1 || status == 3 ? r.size() - 1 : 0;
                    } else {
                        n = r.size();
                    }
                } catch (RuntimeException ignored) {
                    // an unexpected reply: counted as 0 proxies, still logged
                }
                undelivered(n, "shard " + shard + ": " + e.getMessage());
            }
        }
    }

    /** Counts and logs {@code n} proxies extracted in Redis and not delivered to the caller. */
    private void undelivered(int n, String why) {
        if (n <= 0) {
            return;
        }
        undeliveredProxies.add(n);
        LOG.log(
                System.Logger.Level.WARNING,
                "Redis Cluster store " + config.keyPrefix() + ": " + n
                        + " extracted proxies not delivered (the caller gets 503 or the count from other shards;"
                        + " never handed out twice): " + why);
    }

    /** Counts and logs an extracting script whose reply was lost: it may have extracted proxies nobody got. */
    private void uncertain(int shard, RuntimeException e, String howMany) {
        uncertainExtractions.increment();
        LOG.log(
                System.Logger.Level.WARNING,
                "Redis Cluster store " + config.keyPrefix() + ": an extraction on shard " + shard
                        + " may have extracted " + howMany + " proxies that were not delivered (reply lost): "
                        + e.getMessage());
    }

    /**
     * Proxies extracted in Redis and not delivered to any caller since the store was opened: a
     * shard's extraction with too few replica acknowledgements, or proxies already in hand when
     * another shard's failure turned the call into a retryable error. Never handed out twice.
     */
    public long undeliveredProxies() {
        return undeliveredProxies.sum();
    }

    /**
     * Extracting scripts whose reply was lost (timeout, connection cut after sending) since the
     * store was opened: each may have extracted proxies that nobody got (how many is unknown).
     */
    public long uncertainExtractions() {
        return uncertainExtractions.sum();
    }

    /**
     * One shard's extraction of {@code count} proxies in {@code mode} ('0' or '1'), each script
     * followed by WAIT: extract_fast.lua when the request is its case, extract.lua when it is not
     * or the fast call answered {@code {0}} (it extracted nothing).
     */
    private List<?> extractOn(int shard, ExtractionRequest request, Instant now, int count, String mode) {
        if (count == 1) { // the common call: coalesced with the shard's concurrent ones (oneEach)
            Optional<RedisPoolStore.FastOne> one =
                    RedisPoolStore.fastOne(shards[shard], request, now, settings, mode, 0);
            if (one.isPresent()) {
                OneAnswer answer = oneEach.get(shard).submit(one.get());
                if (answer.failure() != null) {
                    throw answer.failure();
                }
                if (answer.record() != null) {
                    return List.of(3L, answer.record()); // as the fast function answers one request
                }
            }
        } else {
            Optional<RedisPoolStore.FastCall> fast =
                    RedisPoolStore.fastCall(shards[shard], request, now, settings, count, mode, 0);
            if (fast.isPresent()) {
                List<?> r = durably(
                        RedisPoolStore.EXTRACT_FAST,
                        fast.get().keys(),
                        fast.get().args());
                if (RedisReplies.number(r.get(0)) == 3) {
                    return r;
                }
            }
        }
        countGeneralCall();
        return durably(
                RedisPoolStore.EXTRACT,
                RedisPoolStore.extractKeys(shards[shard], request, settings),
                RedisPoolStore.extractArgs(request, now, settings, count, mode, 0));
    }

    /** How the count=1 extractions on the shards' fast path were served since the store was opened (all shards). */
    public ExtractionCoalescing coalescing() {
        return ExtractionCoalescing.of(oneEach);
    }

    /** The coalescer of shard {@code shard}'s count=1 fast-path extractions (its calls and requests, for tests). */
    Coalescer<?, ?> oneEach(int shard) {
        return oneEach.get(shard);
    }

    /**
     * A count=1 request's answer from a coalesced call on its shard: its record (null: the call
     * did not serve it, extract.lua goes on), or its own failure when the call ran without enough
     * replica acknowledgements.
     */
    private record OneAnswer(Object record, RedisUnavailableException failure) {}

    /**
     * One extract_fast.lua call, followed by WAIT, for the count=1 requests of {@code batch} on
     * {@code shard}. When the call ran but too few replicas acknowledged it, each request gets a
     * failure of its own whose reply holds only what that request took ({@code {3, record}}
     * or {@code {0}}), so each caller counts its own undelivered proxy and no other; a failure that
     * says nothing of the requests (not run, or no reply) is every request's.
     */
    private List<OneAnswer> extractOneEach(int shard, List<RedisPoolStore.FastOne> batch) {
        RedisPoolStore.FastCall call = RedisPoolStore.fastCallOf(shards[shard], batch);
        List<Object> records;
        try {
            records = RedisPoolStore.answersOf(
                    durablyRaw(RedisPoolStore.EXTRACT_FAST, call.keys(), call.args()), batch.size());
        } catch (RedisUnavailableException e) {
            if (e.scriptRun() != RedisUnavailableException.ScriptRun.RAN_NOT_DURABLE) {
                throw e;
            }
            List<Object> taken = RedisPoolStore.answersOf(e.reply(), batch.size());
            List<OneAnswer> failed = new ArrayList<>(batch.size());
            for (Object one : taken) {
                failed.add(new OneAnswer(
                        null,
                        new RedisUnavailableException(
                                e.failure(),
                                e.getMessage(),
                                e,
                                RedisUnavailableException.ScriptRun.RAN_NOT_DURABLE,
                                one == null ? List.of(0L) : List.of(3L, one))));
            }
            return failed;
        }
        List<OneAnswer> out = new ArrayList<>(batch.size());
        for (Object one : records) {
            out.add(new OneAnswer(one, null));
        }
        return out;
    }

    private List<?> durably(RedisScript script, List<String> keys, List<String> args) {
        return RedisReplies.list(durablyRaw(script, keys, args));
    }

    /** {@code script} on the shard of its keys, then WAIT ({@link RedisAccess#evalDurably}): its reply as Redis sent it. */
    private Object durablyRaw(RedisScript script, List<String> keys, List<String> args) {
        int shard = shardOfKey(keys.get(0));
        return redis.evalDurably(
                script, keys, args, config.waitReplicas(), config.waitTimeout(), o -> durability.observed(shard, o));
    }

    /** The shard of one of its keys, {@code {<keyPrefix><n>}:...}. */
    private int shardOfKey(String key) {
        return Integer.parseInt(key.substring(1 + config.keyPrefix().length(), key.indexOf('}')));
    }

    /**
     * What each shard's extractions wait for now ({@link ShardWait}): from its last extraction, or,
     * when that is older than 2 s, from a reading of the master serving its
     * slot now ({@code INFO replication}, at most once a second per master). With the default
     * {@code store.waitReplicas} a shard whose master has no replica online is
     * {@link ShardWait.State#DEGRADED degraded} (it serves without WAIT); with an explicit
     * {@code waitReplicas} its master cannot meet it is {@link ShardWait.State#REFUSING refusing}
     * (its extractions answer 503). Never throws: a master that cannot be read leaves its shards
     * {@link ShardWait.State#UNKNOWN unknown}, with the reason.
     */
    public List<ShardWait> durability() {
        checkOpen();
        for (int i = 0; i < shards.length; i++) {
            if (durability.fresh(i, DURABILITY_FRESH.toNanos())) {
                continue;
            }
            try {
                durability.read(i, redis.masterOf(shards[i].pool().get(0)));
            } catch (RuntimeException e) {
                durability.unreachable(i, e.getMessage());
            }
        }
        return durability.all();
    }

    /** The configured {@code store.waitReplicas} ({@link RedisClusterConfig#WAIT_AUTO} for the default). */
    public int waitReplicas() {
        return config.waitReplicas();
    }

    private int[] randomOrder() {
        int[] order = new int[shards.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        for (int i = order.length - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }

    /**
     * One page of every shard, merged in id order. A shard whose page ended early (its limit or
     * scan cap) bounds the merge at its last id: nothing after it is known there yet, so the
     * merged page stops there and the next one starts after it.
     */
    @Override
    public ProxyPage list(PoolQuery query, PageRequest page) {
        checkOpen();
        List<String> args = new ArrayList<>(16);
        args.add(page.afterId().orElse(""));
        args.add(Integer.toString(page.limit()));
        args.add(Integer.toString(RedisPoolStore.LIST_SCAN_CAP));
        args.add(query.state().map(s -> s.wireName()).orElse(""));
        RedisPoolStore.addTerms(query.filter(), args);
        List<StoredProxy> merged = new ArrayList<>();
        String bound = null;
        for (RedisKeys shard : shards) {
            List<?> r = RedisReplies.list(redis.eval(RedisPoolStore.LIST, shard.pool(), args));
            for (int i = 1; i < r.size(); i++) {
                merged.add(stored(RedisReplies.list(r.get(i))));
            }
            String next = RedisReplies.string(r.get(0));
            if (!next.isEmpty() && (bound == null || next.compareTo(bound) < 0)) {
                bound = next;
            }
        }
        merged.sort(Comparator.comparing(p -> p.proxy().id()));
        List<StoredProxy> out = new ArrayList<>(page.limit());
        boolean more = false;
        for (StoredProxy p : merged) {
            if (bound != null && p.proxy().id().compareTo(bound) > 0) {
                more = true;
                break;
            }
            if (out.size() == page.limit()) {
                more = true;
                break;
            }
            out.add(p);
        }
        if (!more && bound == null) {
            return new ProxyPage(out, PageRequest.FIRST);
        }
        String next = out.size() == page.limit() || bound == null
                ? out.get(out.size() - 1).proxy().id()
                : bound;
        return new ProxyPage(out, PageRequest.cursorAfter(next));
    }

    @Override
    public boolean isTombstoned(ProxyKey key, Instant now) {
        checkOpen();
        return RedisPoolStore.tombstoned(redis, keysOf(key), key, now, settings);
    }

    @Override
    public String toString() {
        return "RedisClusterPoolStore[" + redis + " keyPrefix=" + config.keyPrefix() + " shards=" + shards.length + "]";
    }
}
