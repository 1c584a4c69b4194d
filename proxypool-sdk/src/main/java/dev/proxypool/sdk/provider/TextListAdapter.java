package dev.proxypool.sdk.provider;

import java.util.HashMap;
import java.util.Map;

/**
 * {@code text_list}: one proxy a line, {@code host:port} (protocol from the {@code protocol}
 * setting or upstream param), {@code [v6]:port}, or {@code scheme://[user:pass@]host:port}; a
 * {@code #} starts a comment. A line of any other shape is {@code malformed_record}.
 *
 * <p>Inline {@code user:pass} is never kept: a proxy carries only a {@code credentialRef}. Without
 * a {@code credentialRef} setting such a line is dropped as {@code inline_credentials_unsupported};
 * with one, the proxy is kept under that ref and the inline secret is discarded (the credential
 * store must hold the same user and password). Settings: {@code path | url (+ tokenEnv | username,
 * passwordEnv, timeout)}, {@code protocol, credentialRef}, and the common ones; no {@code fields}.
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
        boolean refConfigured = settings.credentialRef().isPresent();
        this.fetch = new SourceFetch(config, env, SourceFetch.source(settings, env, true), mapper,
                (in, out) -> Lines.forEach(in, (n, line) -> parseLine(n, line, refConfigured, out)));
    }

    @Override
    public FetchReport fetch(FetchContext ctx) {
        return fetch.fetch(ctx);
    }

    static void parseLine(long n, String line, boolean refConfigured, ReportBuilder out) {
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
        boolean inlineCredentials = at >= 0;
        if (inlineCredentials) {
            s = s.substring(at + 1);
        }
        if (!hostPort(s, record) || (scheme == 0)) {
            out.malformed(n);
            return;
        }
        if (inlineCredentials && !refConfigured) {
            out.rejected(n, DropReason.INLINE_CREDENTIALS_UNSUPPORTED);
            return;
        }
        out.record(n, RawRecord.ofMap(record));
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
