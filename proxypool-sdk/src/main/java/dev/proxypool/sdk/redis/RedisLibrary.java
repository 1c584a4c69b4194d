package dev.proxypool.sdk.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pool scripts as one Redis Functions library ({@code FUNCTION LOAD} once, {@code FCALL} per
 * call), so the ~25 local functions of {@code redis/common.lua} are created once, when the library
 * loads, instead of on every call as with {@code EVALSHA} (docs/architecture.md, "The fast path").
 * Each script becomes a function of the same body that first binds its {@code KEYS} and
 * {@code ARGV} to the library's upvalues the helpers read (a script without the prelude takes them
 * as its parameters instead); the keys are still the caller's
 * {@code KEYS}, nothing is computed. The library's and its functions' names carry a digest of the
 * source, so processes of different versions on one Redis each call their own code.
 *
 * @param name      the library name ({@code proxypool_<digest>})
 * @param source    the source for {@code FUNCTION LOAD}
 * @param functions script SHA → its function name
 */
record RedisLibrary(String name, String source, Map<String, String> functions) {

    /**
     * The scripts whose first write grows memory: at {@code maxmemory} Redis refuses them whole, as
     * it did their {@code EVALSHA} (a script's first memory-growing command is refused). Every other
     * pool function is flagged {@code allow-oom}: its first writes remove (an extraction frees
     * memory; the lapsed health holds it and the purge end put back only the index members their
     * start removed), or it only reads, and {@code EVALSHA} let such scripts run to their end.
     */
    private static final Set<String> GROWING = Set.of("publish", "mark_checked", "mark_health");

    /** The line of common.lua that binds the keys at chunk level; in the library, per call. */
    private static final String BINDING = """
            local K_REC, K_CHK, K_DIS, K_XA, K_XD, K_IDX, K_KEY, K_TOMB, K_CNT, K_IDS, K_AV, K_GC =
              KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10], KEYS[11], KEYS[12]
            local K_HOLD, K_FAST, K_PEND, K_OUT, K_Y = KEYS[13], KEYS[14], KEYS[15], KEYS[16], KEYS[17]
            local K_RV, K_RW = KEYS[18], KEYS[19] -- reservations: nil unless the script is passed them
            """;

    private static final String BOUND = """
            local KEYS, ARGV
            local K_REC, K_CHK, K_DIS, K_XA, K_XD, K_IDX, K_KEY, K_TOMB, K_CNT, K_IDS, K_AV, K_GC
            local K_HOLD, K_FAST, K_PEND, K_OUT, K_Y, K_RV, K_RW
            local function bind(k, a)
              KEYS, ARGV = k, a
              K_REC, K_CHK, K_DIS, K_XA, K_XD, K_IDX, K_KEY, K_TOMB, K_CNT, K_IDS, K_AV, K_GC =
                k[1], k[2], k[3], k[4], k[5], k[6], k[7], k[8], k[9], k[10], k[11], k[12]
              K_HOLD, K_FAST, K_PEND, K_OUT, K_Y, K_RV, K_RW = k[13], k[14], k[15], k[16], k[17], k[18], k[19]
            end
            """;

    /**
     * The library of {@code scripts}, each made of the resource {@code prelude} and its own body,
     * or of its own body alone (a script that uses none of the prelude's functions, such as
     * {@code extract_fast.lua}: its function takes {@code KEYS} and {@code ARGV} as its parameters
     * and binds nothing).
     *
     * @throws IllegalStateException when the prelude does not contain the key binding this class
     *     rewrites
     */
    static RedisLibrary of(String prelude, List<RedisScript> scripts) {
        String common = RedisScript.resource(prelude).source();
        if (!common.contains(BINDING)) {
            throw new IllegalStateException(prelude + " no longer binds its KEYS as RedisLibrary expects");
        }
        StringBuilder body = new StringBuilder(common.replace(BINDING, BOUND));
        List<String[]> entries = new ArrayList<>();
        for (RedisScript s : scripts) {
            int at = s.source().indexOf(common);
            String own = at < 0
                    ? s.source()
                    : s.source().substring(0, at) + s.source().substring(at + common.length());
            String base = s.name().substring(0, s.name().length() - ".lua".length());
            // a script without the prelude reads its own KEYS and ARGV: its parameters, so it skips
            // bind() (a fifth of a microsecond per call, docs/architecture.md)
            String callback = at < 0 ? "function(KEYS, ARGV)\n" : "function(k, a)\nbind(k, a)\n";
            entries.add(new String[] {s.sha(), base, own, callback});
        }
        for (String[] e : entries) {
            body.append("\nredis.register_function{function_name = '")
                    .append(e[1])
                    .append("_@', flags = {")
                    .append(GROWING.contains(e[1]) ? "" : "'allow-oom'")
                    .append("}, callback = ")
                    .append(e[3])
                    .append(e[2])
                    .append("\nend}\n");
        }
        String digest = sha1(body.toString()).substring(0, 12);
        String code = body.toString().replace("_@'", "_" + digest + "'");
        Map<String, String> functions = new HashMap<>();
        for (String[] e : entries) {
            functions.put(e[0], e[1] + "_" + digest);
        }
        String name = "proxypool_" + digest;
        return new RedisLibrary(name, "#!lua name=" + name + "\n" + code, Map.copyOf(functions));
    }

    /** The function name of {@code script}, or null when it is not in this library. */
    String function(RedisScript script) {
        return functions.get(script.sha());
    }

    private static String sha1(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 unavailable", e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
