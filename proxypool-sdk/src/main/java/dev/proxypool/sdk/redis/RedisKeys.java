package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.IdempotencyKey;
import dev.proxypool.core.model.ProxyKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The key names of a {@link RedisPoolStore}; the layout is documented in {@code redis/common.lua}.
 * Every script takes its keys from here in {@code KEYS} and computes none. The pool's keys share
 * the hash tag {@code {<keyPrefix>0}} (shard 0 of a pool that may later be partitioned), the
 * idempotency records the tag {@code {<keyPrefix>i}}: each script touches one Redis Cluster slot.
 */
final class RedisKeys {

    /** The names of the pool keys below the tag, in the KEYS order of every pool script. */
    private static final List<String> POOL =
            List.of("r", "c", "d", "xa", "xd", "i", "k", "t", "n", "s", "a", "g", "h", "f", "m", "o", "y");

    private final String prefix;
    private final String pool;
    private final List<String> poolKeys;
    private final List<String> reservationKeys;
    private final List<String> idempotency;

    RedisKeys(String prefix) {
        this(prefix, 0);
    }

    /** The keys of shard {@code shard} of a partitioned pool (RedisClusterPoolStore); shard 0 is the single-node pool's. */
    RedisKeys(String prefix, int shard) {
        this.prefix = prefix;
        this.pool = "{" + prefix + shard + "}:";
        this.poolKeys = POOL.stream().map(name -> pool + name).toList();
        List<String> withReservations = new ArrayList<>(poolKeys);
        withReservations.add(pool + "v");
        withReservations.add(pool + "w");
        this.reservationKeys = List.copyOf(withReservations);
        String tag = "{" + prefix + "i}:";
        this.idempotency = List.of(tag + "f", tag + "d", tag + "r", tag + "z", tag + "seq", tag + "x");
    }

    String prefix() {
        return prefix;
    }

    /** The start every pool key shares: {@code {<keyPrefix>0}:}. */
    String poolTag() {
        return pool;
    }

    /** The KEYS of every pool script (common.lua's list). */
    List<String> pool() {
        return poolKeys;
    }

    /** {@link #pool()} and the two reservation keys (common.lua's [18] and [19]). */
    List<String> withReservations() {
        return reservationKeys;
    }

    /**
     * The set of one index term ({@code T e:<term>} of common.lua: the available, reserved and
     * disabled ids having that term, popped by extract_fast.lua), {@code term} as
     * {@link ProxyCodec#setTerms} writes it ({@code <bytes>:<item>}).
     */
    String set(String term) {
        return pool + "e:" + term;
    }

    /**
     * {@link #withReservations()} followed by the sets of {@code terms} (common.lua's KEYS[20...]):
     * the keys of a script that adds to or removes from those sets.
     */
    List<String> withSets(Collection<String> terms) {
        List<String> out = new ArrayList<>(reservationKeys.size() + terms.size());
        out.addAll(reservationKeys);
        for (String term : terms) {
            out.add(set(term));
        }
        return out;
    }

    /** The content mark ({@code PoolStore#markContent}): set with each publication, gone with a flush. */
    String contentMark() {
        return pool + "mark";
    }

    /** The tombstone sorted set (physical key by end, ms). */
    String tombstones() {
        return pool + "t";
    }

    /** The per-upstream counters hash. */
    String counts() {
        return pool + "n";
    }

    /** The counter field of the available proxies of {@code upstream} in {@link #counts()}. */
    static String availableField(String upstream) {
        return "a:" + upstream;
    }

    /** {@code proto/host/port/credRef}: '/' never occurs in a host, protocol or ref name. */
    static String physical(ProxyKey key) {
        return key.protocol().wireName() + "/" + key.host() + "/" + key.port() + "/"
                + key.credentialRef().name();
    }

    /**
     * One client's idempotency record: the field naming it in the idempotency hashes. The client
     * name is length-prefixed so no two (client, key) pairs collide.
     */
    static String idempotencyRecord(IdempotencyKey key) {
        return key.client().getBytes(StandardCharsets.UTF_8).length + ":" + key.client() + ":" + key.key();
    }

    /** The keys of the idempotency scripts, in their KEYS order (see idempotency_begin.lua). */
    List<String> idempotency() {
        return idempotency;
    }

    /** {@link #idempotency()} without the start sequence counter (abandon and purge). */
    List<String> idempotencyRecords() {
        return List.of(
                idempotency.get(0), idempotency.get(1), idempotency.get(2), idempotency.get(3), idempotency.get(5));
    }

    /**
     * Keys only the previous layout (before the pool moved into hash-tagged keys) had under the
     * bare prefix: any of them present means data this version would not see.
     */
    List<String> previousLayoutKeys() {
        return List.of(
                prefix + "ids",
                prefix + "ups",
                prefix + "a:all",
                prefix + "x:a",
                prefix + "x:d",
                prefix + "i:f",
                prefix + "iz",
                prefix + "iseq");
    }

    /**
     * SCAN pattern of the previous layout's per-proxy keys under the bare prefix: records
     * {@code p:<id>}, key holders {@code k:<key>} and tombstones {@code t:<key>}.
     */
    String previousLayoutPattern() {
        return prefix.replaceAll("([*?\\[\\]\\\\])", "\\\\$1") + "[pkt]:*";
    }
}
