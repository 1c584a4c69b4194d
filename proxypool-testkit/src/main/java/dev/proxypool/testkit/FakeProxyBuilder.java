package dev.proxypool.testkit;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** What every fake proxy's builder shares: the outbound address and the faults to inject. */
abstract class FakeProxyBuilder<B extends FakeProxyBuilder<B>> {

    InetAddress outboundFrom;
    Faults faults = Faults.NONE;
    final Map<String, Integer> refusals = new HashMap<>();

    abstract B self();

    /**
     * Binds the proxy's outbound connections to {@code local} (e.g. {@code 127.0.0.2}): on loopback
     * the origin then sees an exit address different from the client's, as with a real proxy.
     */
    public B outboundFrom(InetAddress local) {
        this.outboundFrom = Objects.requireNonNull(local, "outbound address");
        return self();
    }

    /**
     * Answers a request for target {@code host} (case-insensitive; CONNECT, forwarded request or SOCKS
     * request) with {@code reply} and closes, as a working proxy that cannot or will not reach that
     * one target does: an HTTP status for an HTTP proxy (e.g. squid's 500 for a name that does not
     * resolve, 403 for an ACL), a reply code for a SOCKS proxy (SOCKS5 4/5, SOCKS4 91). Every other
     * target is served normally.
     */
    public B refuse(String host, int reply) {
        if (host == null || host.isBlank() || reply < 1 || reply > 599) {
            throw new IllegalArgumentException(
                    "refuse needs a host and a reply code 1..599, got " + host + "/" + reply);
        }
        refusals.put(host.toLowerCase(Locale.ROOT), reply);
        return self();
    }

    /** The reply configured by {@link #refuse} for {@code host}, or 0. */
    static int refusal(Map<String, Integer> refusals, String host) {
        Integer r = refusals.isEmpty() || host == null ? null : refusals.get(host.toLowerCase(Locale.ROOT));
        return r == null ? 0 : r;
    }

    public B faults(Faults f) {
        this.faults = Objects.requireNonNull(f, "faults");
        return self();
    }
}
