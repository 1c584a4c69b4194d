package dev.proxypool.server.reliability.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The test JVM's name resolver (registered through {@code META-INF/services}): names under
 * {@value #SUFFIX} resolve to fixed addresses without DNS, so an end-to-end test can ask the real
 * gateway for a name that resolves to loopback, metadata or a private address; every other name
 * goes to the JDK's own resolver unchanged.
 */
public final class TestNames extends InetAddressResolverProvider {

    /** The test names' domain. */
    public static final String SUFFIX = ".ssrf.example";

    /** name (without the suffix) → its addresses. */
    static final Map<String, List<String>> NAMES = Map.of(
            "loop", List.of("127.0.0.1"),
            "loop6", List.of("::1"),
            "meta", List.of("169.254.169.254"),
            "private", List.of("10.0.0.1"),
            "cgnat", List.of("100.64.1.1"),
            "linklocal", List.of("fe80::1"),
            "ula", List.of("fd00::1"),
            "mapped", List.of("::ffff:10.0.0.1"),
            "multicast", List.of("224.0.0.1"),
            "rebind", List.of("93.184.216.34", "127.0.0.1"));

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver builtin = configuration.builtinResolver();
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
                String n = host.toLowerCase(Locale.ROOT);
                if (!n.endsWith(SUFFIX)) {
                    return builtin.lookupByName(host, policy);
                }
                List<String> ips = NAMES.get(n.substring(0, n.length() - SUFFIX.length()));
                if (ips == null) {
                    throw new UnknownHostException(host);
                }
                List<InetAddress> out = new ArrayList<>();
                for (String ip : ips) {
                    out.add(InetAddress.getByAddress(host, InetAddress.getByName(ip).getAddress())); // literal: no lookup
                }
                return out.stream();
            }

            @Override
            public String lookupByAddress(byte[] addr) throws UnknownHostException {
                return builtin.lookupByAddress(addr);
            }
        };
    }

    @Override
    public String name() {
        return "proxypool-test-names";
    }

    /** {@code label + SUFFIX}. */
    static String name(String label) {
        return label + SUFFIX;
    }
}
