package dev.proxypool.sdk.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.RedisClient;

/**
 * Checks the store's Redis layout against itself after a test (see {@code redis/common.lua}):
 * every stored proxy is in exactly the index members, sets and sorted sets of its state, no index
 * or set holds an id that is neither stored nor retired (T g, T y: extracted, cleanup pending), a
 * retired id keeps its record, key and single-term index members until collected (its composite
 * members may be gone: the general script removes them, the fast path leaves them), the counters
 * agree, an available proxy held by health ({@code T h}) is in {@code T o} instead of {@code T a} and has
 * no index members, no stored proxy is tombstoned, every stored id is in the set of each set term of its
 * {@code T f} entry and every other member of a set is retired or pending its cleanup in
 * {@code T m}, and a pool marked indexed alike under a tag has that tag in every {@code T f} entry. A
 * half-done extraction or publish would break one of these. Reads every key of the pool whole: test
 * use only.
 */
final class LayoutAudit {

    private LayoutAudit() {}

    /** Problems found (empty when consistent) in the store of key prefix {@code prefix}. */
    static List<String> problems(String host, int port, String prefix) {
        return problems(host, port, prefix, dev.proxypool.core.extract.StoreSettings.DEFAULT_INDEX_DIMENSIONS);
    }

    /** As {@link #problems(String, int, String)} for a store whose proxies were published with index dimensions {@code dims}. */
    static List<String> problems(String host, int port, String prefix, List<String> dims) {
        List<String> problems = new ArrayList<>();
        String t = new RedisKeys(prefix).poolTag();
        try (RedisClient c = RedisClient.builder().hostAndPort(host, port).build()) {
            Map<String, String> records = c.hgetAll(t + "r");
            Map<String, String> retired = new java.util.HashMap<>(c.hgetAll(t + "g"));
            // taken from a set by the fast path: its tombstone end is its T g value (one without
            // expiry) or its expiry
            for (String id : c.smembers(t + "y")) {
                String record = records.get(id);
                if (retired.containsKey(id)) {
                    continue;
                }
                if (record == null || items(record).get(2).isEmpty()) {
                    problems.add(id + " is retired by the fast path (T y) without an expiry or an end in T g");
                }
                retired.put(id, record == null ? "?" : items(record).get(2));
            }
            // read whole, once: per-id commands would cost minutes at 20,000 proxies on a slow VM
            Map<String, String> holders = c.hgetAll(t + "k");
            Map<String, Double> tombstones = scored(c, t + "t");
            java.util.Set<String> available = c.smembers(t + "a");
            java.util.Set<String> disabledIds = c.smembers(t + "d");
            java.util.Set<String> heldOut = c.smembers(t + "o");
            Map<String, Double> holds = scored(c, t + "h");
            java.util.Set<String> index = new java.util.HashSet<>(c.zrange(t + "i", 0, -1));
            Map<String, Double> xa = scored(c, t + "xa");
            Map<String, Double> xd = scored(c, t + "xd");
            java.util.Set<String> fast = c.hkeys(t + "f");
            if (!fast.equals(records.keySet())) {
                problems.add("the fast fields (T f) of " + fast + " differ from the records of " + records.keySet());
            }
            List<?> fastRecords = (List<?>) c.eval(RECORDS_OF_FAST, List.of(t + "f"), List.of());
            for (int i = 0; i < fastRecords.size(); i += 2) {
                String id = (String) fastRecords.get(i);
                String record = records.get(id);
                if (record == null || !items(record).get(5).equals(fastRecords.get(i + 1))) {
                    problems.add(id + ": the record in its fast item (T f) is not the one of its stored value");
                }
            }
            java.util.TreeSet<String> listed = new java.util.TreeSet<>(records.keySet());
            listed.addAll(retired.keySet());
            List<String> ids = c.zrange(t + "s", 0, -1);
            if (!new java.util.TreeSet<>(ids).equals(listed)) {
                problems.add("listing " + ids + " differs from the records and retired ids " + listed);
            }
            long indexMembers = 0, availableExpiring = 0, disabledExpiring = 0, disabled = 0, retiredExpiring = 0;
            for (Map.Entry<String, String> g : retired.entrySet()) {
                String id = g.getKey();
                String record = records.get(id);
                if (record == null || !g.getValue().matches("[0-9]+")) {
                    problems.add(id + " is retired without its record or tombstone end: " + g.getValue());
                    continue;
                }
                List<String> v = items(record);
                if (available.contains(id) || disabledIds.contains(id) || heldOut.contains(id)) {
                    problems.add(id + " is retired and still available, held out or disabled");
                }
                if (!id.equals(holders.get(v.get(0)))) {
                    problems.add(id + " is retired but no longer holds its key (its tombstone would be lost)");
                }
                for (String item : items(v.get(4))) {
                    boolean there = index.contains(ProxyCodec.utf8Length(item) + ":" + item + "|" + id);
                    if (item.startsWith("c:")) { // removed by the general script (retire), kept by the fast path
                        indexMembers += there ? 1 : 0;
                    } else { // left in the index until collected
                        indexMembers++;
                        if (!there) {
                            problems.add(id + " is retired but lost its index member " + item + " early");
                        }
                    }
                }
                retiredExpiring += xa.containsKey(id) ? 1 : 0;
            }
            java.util.TreeSet<String> availableIds = new java.util.TreeSet<>();
            java.util.TreeSet<String> heldIds = new java.util.TreeSet<>(); // available and held by health: T o
            Map<String, Long> counts = new java.util.TreeMap<>();
            for (Map.Entry<String, String> e : records.entrySet()) {
                String id = e.getKey();
                if (retired.containsKey(id)) {
                    continue;
                }
                List<String> v = items(e.getValue());
                if (v.size() != 6) {
                    problems.add(id + ": stored value has " + v.size() + " tokens");
                    continue;
                }
                String key = v.get(0), upstream = v.get(1), expires = v.get(2), ix = v.get(4);
                if (!id.equals(holders.get(key))) {
                    problems.add(id + " does not hold its key " + key);
                }
                if (tombstones.containsKey(key)) {
                    problems.add(id + " is stored and tombstoned");
                }
                dev.proxypool.core.model.Proxy record = ProxyCodec.decode(v.get(5));
                if (!record.id().equals(id)
                        || !RedisKeys.physical(record.key()).equals(key)
                        || !record.upstream().equals(upstream)
                        || !ProxyCodec.indexItems(record, dims).equals(ix)
                        || !ProxyCodec.storedValue(record, dims).equals(e.getValue())) {
                    problems.add(id + ": fields k/u/ix disagree with the record");
                }
                boolean isAvailable = !disabledIds.contains(id);
                boolean isHeld = isAvailable && holds.containsKey(id);
                if (isHeld) {
                    heldIds.add(id);
                } else if (isAvailable) {
                    availableIds.add(id);
                }
                List<String> members = new ArrayList<>();
                for (String item : items(ix)) {
                    members.add(ProxyCodec.utf8Length(item) + ":" + item + "|" + id);
                }
                boolean indexed = isAvailable && !isHeld;
                for (String m : members) {
                    if (index.contains(m) != indexed) {
                        problems.add(id + (indexed ? " missing from " : " wrongly in ") + "the index as " + m);
                    }
                }
                Double ax = xa.get(id);
                Double dx = xd.get(id);
                Double want = expires.isEmpty() ? null : Double.valueOf(expires);
                // an available proxy that never expires has its T xa entry too, at +inf
                Double wantAvailable = want == null ? Double.POSITIVE_INFINITY : want;
                if (!java.util.Objects.equals(isAvailable ? wantAvailable : null, ax)
                        || !java.util.Objects.equals(isAvailable ? null : want, dx)) {
                    problems.add(id + " has wrong expiry entries " + ax + "/" + dx + " for " + want);
                }
                counts.merge((isAvailable ? "a:" : "d:") + upstream, 1L, Long::sum);
                if (indexed) {
                    indexMembers += members.size();
                }
                if (isAvailable) {
                    availableExpiring++;
                } else {
                    disabled++;
                    disabledExpiring += want == null ? 0 : 1;
                }
            }
            check(problems, "index members", indexMembers, c.zcard(t + "i"));
            if (!availableIds.equals(new java.util.TreeSet<>(available))) {
                problems.add("available set " + available + ", expected " + availableIds);
            }
            if (!heldIds.equals(new java.util.TreeSet<>(heldOut))) {
                problems.add("held-out set " + heldOut + ", expected " + heldIds);
            }
            check(problems, "disabled set", disabled, disabledIds.size());
            check(
                    problems,
                    "xa (available, and retired not yet collected)",
                    availableExpiring + retiredExpiring,
                    c.zcard(t + "xa"));
            check(problems, "xd", disabledExpiring, c.zcard(t + "xd"));
            check(problems, "key holders", records.size(), c.hlen(t + "k"));
            Map<String, Long> stored = new java.util.TreeMap<>();
            Map<String, String> counters = c.hgetAll(t + "n");
            String alike = counters.remove("z"); // the index tag (common.lua index_published), no counter
            counters.remove("zp");
            counters.remove("lc"); // the latest health check written (mark_checked.lua), no counter
            if (alike != null) {
                List<?> otherwise = (List<?>) c.eval(INDEXED_OTHERWISE, List.of(t + "f"), List.of(alike));
                if (!otherwise.isEmpty()) {
                    problems.add("the pool is marked indexed alike under " + alike + " but the fast items of "
                            + otherwise + " carry another tag or none");
                }
            }
            counters.forEach((field, n) -> {
                if (Long.parseLong(n) != 0) {
                    stored.put(field, Long.parseLong(n));
                }
            });
            if (!stored.equals(counts)) {
                problems.add("counters " + stored + ", expected " + counts);
            }
            for (String id : c.hkeys(t + "c")) {
                if (!records.containsKey(id)) {
                    problems.add("check of " + id + ", which is not stored");
                }
            }
            problems.addAll(setProblems(c, t, records.keySet(), retired.keySet()));
            List<String> outside = scan(c, prefix + "*");
            outside.removeIf(k -> k.startsWith(prefix + "snapshot:") || k.startsWith(prefix + "workers"));
            if (!outside.isEmpty()) {
                problems.add("keys under the bare prefix: " + outside);
            }
        }
        return problems;
    }

    /** The records T f entries hold (after their 'r'): id, record, repeated. */
    private static final String RECORDS_OF_FAST = """
            local out = {}
            local all = redis.call('HGETALL', KEYS[1])
            for i = 1, #all, 2 do
              local t = { cmsgpack.unpack(all[i + 1]) }
              if t[4] == 'r' then
                out[#out + 1] = all[i]
                out[#out + 1] = t[5]
              end
            end
            return out
            """;

    /** Unpacks every T f entry: id -> its set terms (none for an entry without them). */
    private static final String SET_TERMS_OF_FAST = """
            local out = {}
            local all = redis.call('HGETALL', KEYS[1])
            for i = 1, #all, 2 do
              local t = { cmsgpack.unpack(all[i + 1]) }
              local entry = { all[i] }
              local first = t[4] == 'r' and 6 or t[4] == 's' and 5
              if first then
                for k = first, #t do
                  if string.byte(t[k], 1) ~= 35 then entry[#entry + 1] = t[k] end -- not the index tag '#...'
                end
              end
              out[#out + 1] = entry
            end
            return out
            """;

    /** The ids of the T f entries whose last item is not the index tag ARGV[1]. */
    private static final String INDEXED_OTHERWISE = """
            local out = {}
            local all = redis.call('HGETALL', KEYS[1])
            for i = 1, #all, 2 do
              local t = { cmsgpack.unpack(all[i + 1]) }
              if t[#t] ~= ARGV[1] then out[#out + 1] = all[i] end
            end
            return out
            """;

    /**
     * The per-term sets (T e:term): every stored, not retired id is in the set of each term of its
     * T f entry; every other member is retired (T g) or pending its cleanup (T m names the term).
     */
    private static List<String> setProblems(
            RedisClient c, String t, java.util.Set<String> records, java.util.Set<String> retired) {
        List<String> problems = new ArrayList<>();
        Map<String, java.util.Set<String>> termsOf = new java.util.HashMap<>();
        for (Object entry : (List<?>) c.eval(SET_TERMS_OF_FAST, List.of(t + "f"), List.of())) {
            List<?> e = (List<?>) entry;
            java.util.Set<String> terms = new java.util.HashSet<>();
            for (int i = 1; i < e.size(); i++) {
                terms.add((String) e.get(i));
            }
            termsOf.put((String) e.get(0), terms);
        }
        Map<String, String> pending = c.hgetAll(t + "m");
        java.util.Set<String> setKeys =
                new java.util.TreeSet<>(scan(c, t.replace("{", "\\{").replace("}", "\\}") + "e:*"));
        Map<String, java.util.Set<String>> membersOf = new java.util.HashMap<>();
        for (String key : setKeys) {
            membersOf.put(key.substring((t + "e:").length()), c.smembers(key));
        }
        for (Map.Entry<String, java.util.Set<String>> e : termsOf.entrySet()) {
            String id = e.getKey();
            if (retired.contains(id) || !records.contains(id)) {
                continue;
            }
            for (String term : e.getValue()) {
                if (!membersOf.getOrDefault(term, java.util.Set.of()).contains(id)) {
                    problems.add(id + " is missing from the set of " + term);
                }
            }
        }
        for (Map.Entry<String, java.util.Set<String>> set : membersOf.entrySet()) {
            String term = set.getKey();
            for (String id : set.getValue()) {
                boolean member = records.contains(id)
                        && !retired.contains(id)
                        && termsOf.getOrDefault(id, java.util.Set.of()).contains(term);
                boolean pendingHere =
                        pending.containsKey(id) && items(pending.get(id)).contains(term);
                if (!member && !retired.contains(id) && !pendingHere) {
                    problems.add(id + " is in the set of " + term + " without being a member, retired or pending");
                }
            }
        }
        return problems;
    }

    /** The items of a length-prefixed field: {@code <bytes>:<item>} repeated (byte lengths: decode as UTF-8). */
    static List<String> items(String ix) {
        byte[] b = ix.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        int pos = 0;
        while (pos < b.length) {
            int colon = pos;
            while (b[colon] != ':') {
                colon++;
            }
            int n = Integer.parseInt(new String(b, pos, colon - pos, java.nio.charset.StandardCharsets.US_ASCII));
            out.add(new String(b, colon + 1, n, java.nio.charset.StandardCharsets.UTF_8));
            pos = colon + 1 + n;
        }
        return out;
    }

    static List<String> scan(RedisClient c, String pattern) {
        List<String> out = new ArrayList<>();
        redis.clients.jedis.params.ScanParams params =
                new redis.clients.jedis.params.ScanParams().match(pattern).count(1000);
        String cursor = "0";
        do {
            var page = c.scan(cursor, params);
            out.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!cursor.equals("0"));
        return out;
    }

    /** The members of sorted set {@code key} with their scores. */
    private static Map<String, Double> scored(RedisClient c, String key) {
        Map<String, Double> out = new java.util.HashMap<>();
        for (redis.clients.jedis.resps.Tuple e : c.zrangeWithScores(key, 0, -1)) {
            out.put(e.getElement(), e.getScore());
        }
        return out;
    }

    private static void check(List<String> problems, String what, long want, long got) {
        if (want != got) {
            problems.add(what + ": expected " + want + ", found " + got);
        }
    }
}
