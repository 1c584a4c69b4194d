package dev.proxypool.core.routing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code match} block of a routing: which requests the rule takes. Each key lists
 * alternatives (any one may match); all keys given must match; a key left empty does not
 * constrain, so the empty match ({@link #ANY}) is a catch-all.
 *
 * <ul>
 *   <li>{@code clients}: authenticated client names, exact and case-sensitive; an anonymous request
 *       never matches a rule that lists clients.</li>
 *   <li>{@code hosts}: {@code shop.example} (exact), {@code *.shop.example} (every subdomain at any
 *       depth, NOT the apex: list {@code shop.example} too to include it), or a glob where {@code *}
 *       matches any run of characters (dots included) and {@code ?} one character. Stored in
 *       canonical form: ASCII lower case, no trailing dot, no IPv6 brackets; IDN text as given.</li>
 *   <li>{@code ports}: target ports 1..65535.</li>
 *   <li>{@code methods}: stored upper case, matched case-insensitively ({@code CONNECT} for tunnels).</li>
 *   <li>{@code headers}: {@code {name: value}}, all must be present with exactly that value
 *       (surrounding whitespace of the request's value ignored); names are case-insensitive and
 *       stored in lower case.</li>
 * </ul>
 * Invalid values throw {@link IllegalArgumentException} naming the key, e.g.
 * {@code match.ports[0]: port 0 is out of range 1..65535}; {@link RoutingRule.Builder} prefixes
 * the routing, e.g. {@code routings[shop].match.ports[0]: ...}.
 *
 * @param clients client names; null or empty = any client
 * @param hosts   host patterns, stored canonical; null or empty = any host
 * @param ports   target ports; null or empty = any port
 * @param methods HTTP methods, stored upper case; null or empty = any method
 * @param headers header name (stored lower case) to exact value; null or empty = no constraint
 */
public record Match(
        List<String> clients,
        List<String> hosts,
        List<Integer> ports,
        List<String> methods,
        Map<String, String> headers) {

    /** Matches every request. */
    public static final Match ANY = new Match(List.of(), List.of(), List.of(), List.of(), Map.of());

    /**
     * Validates and normalizes every key; the lists and map become unmodifiable copies.
     *
     * @throws IllegalArgumentException naming the key and index of the first invalid or repeated value
     */
    public Match {
        clients = names(clients, "match.clients", false);
        hosts = hostPatterns(hosts);
        ports = ports(ports);
        methods = methods(methods);
        headers = headers(headers);
    }

    /**
     * True when no key constrains: the rule takes every request.
     *
     * @return true if every key is empty
     */
    public boolean isCatchAll() {
        return clients.isEmpty() && hosts.isEmpty() && ports.isEmpty() && methods.isEmpty() && headers.isEmpty();
    }

    private static List<String> names(List<String> in, String key, boolean upper) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(in.size());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < in.size(); i++) {
            String v = in.get(i);
            if (v == null || v.isBlank()) {
                throw new IllegalArgumentException(key + "[" + i + "]: must not be empty");
            }
            v = v.trim();
            if (upper) {
                v = v.toUpperCase(Locale.ROOT);
            }
            if (!seen.add(v)) {
                throw new IllegalArgumentException(key + "[" + i + "]: '" + v + "' is listed twice");
            }
            out.add(v);
        }
        return List.copyOf(out);
    }

    private static List<String> hostPatterns(List<String> in) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(in.size());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < in.size(); i++) {
            String key = "match.hosts[" + i + "]";
            String canonical = HostPattern.normalize(in.get(i), key);
            HostPattern.parse(canonical, key); // validates the wildcard form
            if (!seen.add(canonical)) {
                throw new IllegalArgumentException(key + ": '" + canonical + "' is listed twice");
            }
            out.add(canonical);
        }
        return List.copyOf(out);
    }

    private static List<Integer> ports(List<Integer> in) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < in.size(); i++) {
            Integer p = in.get(i);
            if (p == null || p < 1 || p > 65535) {
                throw new IllegalArgumentException("match.ports[" + i + "]: port " + p + " is out of range 1..65535");
            }
            if (!seen.add(p)) {
                throw new IllegalArgumentException("match.ports[" + i + "]: port " + p + " is listed twice");
            }
        }
        return List.copyOf(in);
    }

    private static List<String> methods(List<String> in) {
        List<String> out = names(in, "match.methods", true);
        for (int i = 0; i < out.size(); i++) {
            if (!isToken(out.get(i))) {
                throw new IllegalArgumentException(
                        "match.methods[" + i + "]: '" + out.get(i) + "' is not an HTTP method");
            }
        }
        return out;
    }

    private static Map<String, String> headers(Map<String, String> in) {
        if (in == null || in.isEmpty()) {
            return Map.of();
        }
        LinkedHashMap<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : in.entrySet()) {
            String name = e.getKey();
            if (name == null || name.isBlank() || !isToken(name.trim())) {
                throw new IllegalArgumentException("match.headers: '" + name + "' is not a header name");
            }
            String lower = name.trim().toLowerCase(Locale.ROOT);
            if (e.getValue() == null) {
                throw new IllegalArgumentException("match.headers." + name + ": value must not be null");
            }
            if (out.put(lower, e.getValue().trim()) != null) {
                throw new IllegalArgumentException(
                        "match.headers." + name + ": header is listed twice (names are case-insensitive)");
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** RFC 9110 token characters. */
    private static boolean isToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return !s.isEmpty();
    }
}
