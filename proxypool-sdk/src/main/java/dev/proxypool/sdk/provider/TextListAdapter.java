package dev.proxypool.sdk.provider;

import dev.proxypool.sdk.credentials.InlineCredentials;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code text_list}: one proxy a line, {@code host:port} (protocol from the {@code protocol}
 * setting or upstream param), {@code [v6]:port}, or {@code scheme://[user:pass@]host:port}; a
 * {@code #} starts a comment. A line of any other shape is {@code malformed_record}.
 *
 * <p>Inline {@code user:pass} (percent-encoding decoded, so {@code %40} is {@code @} and {@code %23}
 * is {@code #}) goes into the environment's {@link dev.proxypool.sdk.credentials.InlineCredentials}
 * and the proxy carries only the derived {@code credentialRef} ({@code inline-...}), which wins over
 * a configured {@code credentialRef} for that line; a proxy never carries the secret itself. An
 * empty username or one with a control character is {@code malformed_record}. Settings:
 * {@code path | url (+ tokenEnv | username, passwordEnv, timeout)}, {@code protocol,
 * credentialRef}, and the common ones; no {@code fields}.
 */
final class TextListAdapter implements ProviderAdapter {

    static final String TYPE = "text_list";

    private final SourceFetch fetch;

    TextListAdapter(ProviderConfig config, ProviderEnvironment env) {
        if (!config.fields().isEmpty()) {
            throw new IllegalArgumentException(config.keyName("fields") + ": type '" + TYPE + "' has no fields to map");
        }
        Settings settings = new Settings(config, Settings.remoteAnd("path"));
        CandidateMapper mapper = new CandidateMapper(config, settings, new FieldMapping(config));
        String scope = config.name();
        this.fetch = new SourceFetch(config, env, SourceFetch.source(settings, env, true), mapper, (in, out) -> {
            Set<String> keptThisFetch = new HashSet<>();
            Lines.forEach(in, (n, line) -> parseLine(n, line, scope, env.inline(), keptThisFetch, out));
        });
    }

    @Override
    public FetchReport fetch(FetchContext ctx) {
        return fetch.fetch(ctx);
    }

    /**
     * Parses one line into {@code out}. {@code keptThisFetch} holds the inline refs this fetch stored
     * already: a later line with the same user and address is dropped as a duplicate of the first
     * (design E3), so it must not replace the first line's password either, or the kept proxy would be
     * dialled with the dropped line's.
     */
    static void parseLine(
            long n, String line, String scope, InlineCredentials inline, Set<String> keptThisFetch, ReportBuilder out) {
        int hash = line.indexOf('#');
        String s = (hash >= 0 ? line.substring(0, hash) : line).strip();
        if (s.isEmpty()) {
            return;
        }
        Map<String, String> record = new HashMap<>();
        int scheme = s.indexOf("://");
        if (scheme >= 0) {
            record.put("protocol", s.substring(0, scheme));
            s = s.substring(scheme + 3);
            if (s.endsWith("/")) {
                s = s.substring(0, s.length() - 1);
            }
        }
        int at = s.lastIndexOf('@');
        String userInfo = at >= 0 ? s.substring(0, at) : null;
        if (at >= 0) {
            s = s.substring(at + 1);
        }
        if (!hostPort(s, record) || (scheme == 0)) {
            out.malformed(n);
            return;
        }
        if (userInfo != null && !keepCredentials(userInfo, scope, inline, keptThisFetch, record)) {
            out.malformed(n);
            return;
        }
        out.record(n, RawRecord.ofMap(record));
    }

    /** Stores {@code user[:pass]} under a derived ref named in {@code record}; false when unusable. */
    private static boolean keepCredentials(
            String userInfo,
            String scope,
            InlineCredentials inline,
            Set<String> keptThisFetch,
            Map<String, String> record) {
        int colon = userInfo.indexOf(':');
        String user = percentDecode(colon >= 0 ? userInfo.substring(0, colon) : userInfo);
        String pass = percentDecode(colon >= 0 ? userInfo.substring(colon + 1) : "");
        int port;
        try {
            port = Integer.parseInt(record.get("port"));
        } catch (NumberFormatException e) {
            port = -1; // the mapper drops it as invalid_port; the ref only needs to be stable
        }
        if (user == null || pass == null) {
            return false;
        }
        try {
            String host = record.get("host");
            String ref = InlineCredentials.ref(scope, user, host, port).name();
            if (keptThisFetch.add(ref)) {
                // the first line of this fetch wins; a later fetch's first line replaces it (rotation)
                inline.put(scope, user, pass, host, port);
            }
            record.put("credentialRef", ref);
            return true;
        } catch (IllegalArgumentException e) {
            return false; // empty username, or a control character in it
        }
    }

    /** Decodes {@code %XX} escapes as UTF-8; null for a broken escape. */
    static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    return null;
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                bytes.write(hi * 16 + lo);
                i += 2;
            } else {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** Splits {@code host:port} or {@code [v6]:port}; false when the shape is wrong. */
    private static boolean hostPort(String s, Map<String, String> record) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i)) || s.charAt(i) == '/') {
                return false;
            }
        }
        String host;
        String port;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0 || close + 1 >= s.length() || s.charAt(close + 1) != ':') {
                return false;
            }
            host = s.substring(0, close + 1);
            port = s.substring(close + 2);
        } else {
            int colon = s.lastIndexOf(':');
            if (colon < 0) {
                return false;
            }
            host = s.substring(0, colon);
            port = s.substring(colon + 1);
            if (host.indexOf(':') >= 0) {
                return false; // an IPv6 address needs brackets here
            }
        }
        if (host.isEmpty() || port.isEmpty()) {
            return false;
        }
        record.put("host", host);
        record.put("port", port);
        return true;
    }
}
