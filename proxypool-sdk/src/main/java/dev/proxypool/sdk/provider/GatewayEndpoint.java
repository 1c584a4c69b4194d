package dev.proxypool.sdk.provider;

/**
 * A rotating gateway's {@code endpoint} setting: {@code host:port} or {@code [v6]:port}.
 *
 * @param host the host, normalized (IPv6 without brackets)
 * @param port the port, 1..65535
 */
record GatewayEndpoint(String host, int port) {

    /** The endpoint a provider's settings name; a bad one is refused naming {@code endpoint}. */
    static GatewayEndpoint parse(Settings settings) {
        String raw = settings.require("endpoint").trim();
        String h;
        String p;
        if (raw.startsWith("[")) {
            int close = raw.indexOf(']');
            if (close < 0 || close + 1 >= raw.length() || raw.charAt(close + 1) != ':') {
                throw badEndpoint(settings, raw);
            }
            h = raw.substring(0, close + 1);
            p = raw.substring(close + 2);
        } else {
            int colon = raw.lastIndexOf(':');
            if (colon <= 0 || raw.indexOf(':') != colon) {
                throw badEndpoint(settings, raw);
            }
            h = raw.substring(0, colon);
            p = raw.substring(colon + 1);
        }
        String normalized = Hosts.normalize(h);
        int n;
        try {
            n = Integer.parseInt(p);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (normalized == null || n < 1 || n > 65535) {
            throw badEndpoint(settings, raw);
        }
        return new GatewayEndpoint(normalized, n);
    }

    private static IllegalArgumentException badEndpoint(Settings settings, String raw) {
        return new IllegalArgumentException(
                settings.key("endpoint") + ": '" + raw + "' is not host:port (e.g. gate.example.com:7000)");
    }
}
