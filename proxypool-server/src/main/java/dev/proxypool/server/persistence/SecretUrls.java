package dev.proxypool.server.persistence;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Secrets in provider URLs: vendors put API keys in the query string ({@code ?apikey=...}) or the
 * user info ({@code https://key@host/}, {@code https://user:pass@host/}). What leaves the process
 * (admin API answers, audit rows, the console) carries {@link #mask masked} URLs; the stored and
 * running configuration keeps the real value, and an edit that sends a masked URL back keeps the
 * secret ({@link #unmask}), as a credential is kept by reference.
 *
 * <pre>
 * https://user:pass@feed.example/list?apikey=K&amp;country={country}&amp;fmt=json
 * https://***@feed.example/list?apikey=***&amp;country={country}&amp;fmt=***
 * </pre>
 * Every query value is masked (a URL cannot say which one is the key), except an empty one and a
 * {@code {param}} placeholder, which the upstream's params fill and which holds no secret. The
 * scheme, host, port, path and fragment are shown as they are.
 */
public final class SecretUrls {

    /** What replaces a secret part. */
    public static final String MASK = "***";

    private SecretUrls() {}

    /** The URL with its user info and query values replaced by {@value #MASK}. */
    public static String mask(String url) {
        Parts p = Parts.of(url);
        if (p == null) {
            return url;
        }
        StringBuilder out = new StringBuilder(url.length());
        out.append(p.prefix);
        if (p.userInfo != null) {
            out.append(MASK).append('@');
        }
        out.append(p.hostAndPath);
        if (p.query != null) {
            out.append('?');
            List<String> params = new ArrayList<>();
            for (Param q : p.params()) {
                params.add(
                        q.name == null
                                ? (keep(q.value) ? q.value : MASK)
                                : q.name + "=" + (keep(q.value) ? q.value : MASK));
            }
            out.append(String.join("&", params));
        }
        out.append(p.fragment);
        return out.toString();
    }

    /** Whether {@code url} has a part {@link #mask} would hide (user info, or a query value). */
    public static boolean hasSecret(String url) {
        return !mask(url).equals(url);
    }

    /**
     * The URL to store for {@code given}: every {@value #MASK} in its user info or query values is
     * replaced by the matching part of {@code stored} (the same query parameter by name and
     * occurrence); a URL without a mask is returned as it is.
     *
     * @param stored the URL stored now, or null when there is none (a create)
     * @throws IllegalArgumentException naming the masked part {@code stored} has no value for
     */
    public static String unmask(String given, String stored) {
        Parts g = Parts.of(given);
        if (g == null || !given.contains(MASK)) {
            return given;
        }
        Parts s = stored == null ? null : Parts.of(stored);
        StringBuilder out = new StringBuilder(given.length());
        out.append(g.prefix);
        if (g.userInfo != null) {
            if (g.userInfo.equals(MASK)) {
                if (s == null || s.userInfo == null) {
                    throw new IllegalArgumentException("the user info is masked (" + MASK + ") but the stored url "
                            + (s == null ? "does not exist" : "has none") + ": send the real value");
                }
                out.append(s.userInfo);
            } else {
                out.append(g.userInfo);
            }
            out.append('@');
        }
        out.append(g.hostAndPath);
        if (g.query != null) {
            out.append('?');
            List<Param> storedParams = s == null ? List.of() : s.params();
            Map<String, Integer> seen = new HashMap<>();
            List<String> params = new ArrayList<>();
            for (Param q : g.params()) {
                String key = q.name == null ? "" : q.name;
                int occurrence = seen.merge(key, 1, Integer::sum) - 1;
                String value = q.value;
                if (MASK.equals(value)) {
                    value = nth(storedParams, q.name, occurrence);
                    if (value == null) {
                        throw new IllegalArgumentException((q.name == null
                                        ? "a query value without a name"
                                        : "the query parameter '" + q.name + "'")
                                + " is masked (" + MASK + ") but the stored url "
                                + (s == null ? "does not exist" : "has no value for it") + ": send the real value");
                    }
                }
                params.add(q.name == null ? value : q.name + "=" + value);
            }
            out.append(String.join("&", params));
        }
        out.append(g.fragment);
        return out.toString();
    }

    private static String nth(List<Param> params, String name, int occurrence) {
        int i = 0;
        for (Param p : params) {
            if (Objects.equals(p.name, name) && i++ == occurrence) {
                return p.value;
            }
        }
        return null;
    }

    private static boolean keep(String value) {
        return value.isEmpty() || value.matches("\\{[A-Za-z0-9_]+\\}");
    }

    /** One query parameter: {@code name=value}, or a bare {@code value} ({@code name} null). */
    private record Param(String name, String value) {}

    /** {@code prefix} (scheme and {@code ://}), user info (null: none), host to path, query (null: none), fragment. */
    private record Parts(String prefix, String userInfo, String hostAndPath, String query, String fragment) {

        static Parts of(String url) {
            int scheme = url.indexOf("://");
            if (scheme < 0) {
                return null;
            }
            int hostStart = scheme + 3;
            int fragmentAt = url.indexOf('#', hostStart);
            String fragment = fragmentAt < 0 ? "" : url.substring(fragmentAt);
            String rest = fragmentAt < 0 ? url.substring(hostStart) : url.substring(hostStart, fragmentAt);
            int queryAt = rest.indexOf('?');
            String query = queryAt < 0 ? null : rest.substring(queryAt + 1);
            String beforeQuery = queryAt < 0 ? rest : rest.substring(0, queryAt);
            int pathAt = beforeQuery.indexOf('/');
            String authority = pathAt < 0 ? beforeQuery : beforeQuery.substring(0, pathAt);
            int at = authority.lastIndexOf('@');
            String userInfo = at < 0 ? null : authority.substring(0, at);
            String hostAndPath = at < 0 ? beforeQuery : beforeQuery.substring(at + 1);
            return new Parts(url.substring(0, hostStart), userInfo, hostAndPath, query, fragment);
        }

        List<Param> params() {
            List<Param> out = new ArrayList<>();
            if (query == null || query.isEmpty()) {
                return out;
            }
            for (String pair : query.split("&", -1)) {
                int eq = pair.indexOf('=');
                out.add(eq < 0 ? new Param(null, pair) : new Param(pair.substring(0, eq), pair.substring(eq + 1)));
            }
            return out;
        }
    }
}
