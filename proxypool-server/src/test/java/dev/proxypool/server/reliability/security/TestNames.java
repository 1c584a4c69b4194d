package dev.proxypool.server.reliability.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A resolver for the destination policy ({@code DestinationPolicy.Resolver}) with fixed answers and
 * no DNS: names under {@value #SUFFIX} resolve to loopback, metadata, private and other forbidden
 * addresses, every other name is unknown.
 */
final class TestNames {

    static final String SUFFIX = ".ssrf.example";

    /** label → its addresses. */
    private static final Map<String, List<String>> NAMES = Map.ofEntries(
            Map.entry("loop", List.of("127.0.0.1")),
            Map.entry("loop6", List.of("::1")),
            Map.entry("meta", List.of("169.254.169.254")),
            Map.entry("private", List.of("10.0.0.1")),
            Map.entry("cgnat", List.of("100.64.1.1")),
            Map.entry("linklocal", List.of("fe80::1")),
            Map.entry("ula", List.of("fd00::1")),
            Map.entry("mapped", List.of("::ffff:10.0.0.1")),
            Map.entry("multicast", List.of("224.0.0.1")),
            Map.entry("rebind", List.of("93.184.216.34", "127.0.0.1")),
            // the test origin: loopback, so allowed only where a test allow-lists this name
            Map.entry("origin", List.of("127.0.0.1")));

    /** Every label with a forbidden address among its answers. */
    static final List<String> FORBIDDEN =
            List.of("loop", "loop6", "meta", "private", "cgnat", "linklocal", "ula", "mapped", "multicast", "rebind");

    private TestNames() {}

    static String name(String label) {
        return label + SUFFIX;
    }

    static InetAddress[] resolve(String host) throws UnknownHostException {
        String n = host.toLowerCase(Locale.ROOT);
        List<String> ips = n.endsWith(SUFFIX) ? NAMES.get(n.substring(0, n.length() - SUFFIX.length())) : null;
        if (ips == null) {
            throw new UnknownHostException(host);
        }
        InetAddress[] out = new InetAddress[ips.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = InetAddress.getByAddress(
                    host, InetAddress.getByName(ips.get(i)).getAddress()); // literals: no lookup
        }
        return out;
    }
}
