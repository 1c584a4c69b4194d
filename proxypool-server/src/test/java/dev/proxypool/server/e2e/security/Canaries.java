package dev.proxypool.server.e2e.security;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Unique canary secrets and the needles to look for (each raw, and the Basic-auth base64 forms it
 * travels in), plus a scanner that records WHERE a needle was found, never the haystack itself.
 */
final class Canaries {

    private final Map<String, String> needles = new LinkedHashMap<>();
    private final List<String> hits = new ArrayList<>();
    private int scanned;

    static String fresh() {
        byte[] b = new byte[8];
        ThreadLocalRandom.current().nextBytes(b);
        return "CANARY-" + HexFormat.of().formatHex(b);
    }

    /** Looks for {@code value} under the label {@code name}. */
    Canaries watch(String name, String value) {
        needles.put(name, value);
        return this;
    }

    /** Also looks for base64("user:password"), the form a Basic header carries. */
    Canaries watchBasic(String name, String user, String password) {
        return watch(
                name + " as Basic base64",
                Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }

    /** Scans one haystack; a hit is recorded with its location and the needle's label. */
    void scan(String where, String text) {
        scanned++;
        if (text == null) {
            return;
        }
        for (Map.Entry<String, String> n : needles.entrySet()) {
            int at = text.indexOf(n.getValue());
            if (at >= 0) {
                hits.add(n.getKey() + " found in " + where + " at offset " + at);
            }
        }
    }

    /** A fresh scanner looking for the same needles (for positive controls). */
    Canaries copyNeedles() {
        Canaries c = new Canaries();
        c.needles.putAll(needles);
        return c;
    }

    List<String> hits() {
        return List.copyOf(hits);
    }

    int scanned() {
        return scanned;
    }
}
