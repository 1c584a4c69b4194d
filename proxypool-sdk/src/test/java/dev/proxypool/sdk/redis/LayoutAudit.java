package dev.proxypool.sdk.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.RedisClient;

/**
 * Checks the store's Redis layout against itself after a test (see {@code redis/common.lua}):
 * every stored proxy is in exactly the sets and sorted sets of its state, no set holds an id that
 * is not stored, no stored proxy is tombstoned. A half-done extraction or publish would break one
 * of these. O(n) commands: test use only.
 */
final class LayoutAudit {

    private LayoutAudit() {
    }

    /** Problems found (empty when consistent). */
    static List<String> problems(String host, int port, String p) {
        List<String> problems = new ArrayList<>();
        try (RedisClient c = RedisClient.builder().hostAndPort(host, port).build()) {
            List<String> ids = c.zrange(p + "ids", 0, -1);
            long available = 0, disabled = 0, availableExpiring = 0, disabledExpiring = 0;
            for (String id : ids) {
                Map<String, String> h = c.hgetAll(p + "p:" + id);
                if (h.isEmpty()) {
                    problems.add(id + " is listed but has no record");
                    continue;
                }
                String key = h.get("k");
                if (!id.equals(c.get(p + "k:" + key))) {
                    problems.add(id + " does not hold its key " + key);
                }
                if (c.exists(p + "t:" + key)) {
                    problems.add(id + " is stored and tombstoned");
                }
                dev.proxypool.core.model.Proxy record = ProxyCodec.decode(h.get("r"));
                if (!record.id().equals(id) || !RedisKeys.physical(record.key()).equals(key)
                        || !record.upstream().equals(h.get("u"))
                        || !ProxyCodec.indexItems(record).equals(h.get("ix"))) {
                    problems.add(id + ": fields k/u/ix disagree with the record");
                }
                boolean isAvailable = "available".equals(h.get("s"));
                List<String> availSets = new ArrayList<>(List.of(p + "a:all"));
                for (String item : items(h.get("ix"))) {
                    availSets.add(p + "a:" + item);
                }
                for (String s : availSets) {
                    if (c.sismember(s, id) != isAvailable) {
                        problems.add(id + (isAvailable ? " missing from " : " wrongly in ") + s);
                    }
                }
                if (c.sismember(p + "d:u:" + h.get("u"), id) == isAvailable) {
                    problems.add(id + " has the wrong disabled-set membership");
                }
                Double ax = c.zscore(p + "x:a", id);
                Double dx = c.zscore(p + "x:d", id);
                Double want = h.containsKey("e") ? Double.valueOf(h.get("e")) : null;
                if (!java.util.Objects.equals(isAvailable ? want : null, ax)
                        || !java.util.Objects.equals(isAvailable ? null : want, dx)) {
                    problems.add(id + " has wrong expiry entries " + ax + "/" + dx + " for " + want);
                }
                if (!c.sismember(p + "ups", h.get("u"))) {
                    problems.add(id + ": upstream " + h.get("u") + " not in ups");
                }
                if (isAvailable) {
                    available++;
                    availableExpiring += want == null ? 0 : 1;
                } else {
                    disabled++;
                    disabledExpiring += want == null ? 0 : 1;
                }
            }
            check(problems, "a:all", available, c.scard(p + "a:all"));
            check(problems, "x:a", availableExpiring, c.zcard(p + "x:a"));
            check(problems, "x:d", disabledExpiring, c.zcard(p + "x:d"));
            long perUpstreamAvailable = 0, perUpstreamDisabled = 0;
            for (String u : c.smembers(p + "ups")) {
                long a = c.scard(p + "a:u:" + u);
                long d = c.scard(p + "d:u:" + u);
                perUpstreamAvailable += a;
                perUpstreamDisabled += d;
            }
            check(problems, "sum of a:u:*", available, perUpstreamAvailable);
            check(problems, "sum of d:u:*", disabled, perUpstreamDisabled);
            long keyHolders = 0;
            for (String k : scan(c, p + "k:*")) {
                keyHolders++;
                String id = c.get(k);
                if (!c.exists(p + "p:" + id)) {
                    problems.add(k + " points at " + id + ", which is not stored");
                }
            }
            check(problems, "k:* keys", ids.size(), keyHolders);
            check(problems, "p:* records", ids.size(), scan(c, p + "p:*").size());
        }
        return problems;
    }

    /** The items of an ix field: {@code <bytes>:<item>} repeated (byte lengths: decode as UTF-8). */
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
        redis.clients.jedis.params.ScanParams params = new redis.clients.jedis.params.ScanParams().match(pattern).count(1000);
        String cursor = "0";
        do {
            var page = c.scan(cursor, params);
            out.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!cursor.equals("0"));
        return out;
    }

    private static void check(List<String> problems, String what, long want, long got) {
        if (want != got) {
            problems.add(what + ": expected " + want + ", found " + got);
        }
    }
}
