package dev.proxypool.core.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@code onNoCandidate: direct}: resolve once, check every address, dial the checked one. */
class ResolveForDirectTest {

    private final AtomicInteger lookups = new AtomicInteger();

    private final Map<String, List<String>> dns = Map.of(
            "public.example", List.of("93.184.216.34"),
            "dual.example", List.of("93.184.216.34", "2606:2800:220:1::"),
            "rebind.example", List.of("93.184.216.34", "127.0.0.1"),
            "meta.example", List.of("169.254.169.254"),
            "ula.example", List.of("fd00::1"),
            "mapped.example", List.of("::ffff:10.0.0.1"),
            "localhost", List.of("127.0.0.1"),
            "self.example", List.of("127.0.0.1"));

    private InetAddress[] resolve(String host) throws UnknownHostException {
        lookups.incrementAndGet();
        List<String> ips = dns.get(host);
        if (ips == null) {
            throw new UnknownHostException(host);
        }
        InetAddress[] out = new InetAddress[ips.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = InetAddress.getByName(ips.get(i)); // literals: no DNS
        }
        return out;
    }

    private DestinationPolicy.Builder policy() {
        return DestinationPolicy.builder().resolver(this::resolve);
    }

    private static String outcome(DirectDestination d) {
        return switch (d) {
            case DirectDestination.Dial dial -> dial.address().getHostAddress();
            case DirectDestination.Refused r -> r.reason().code();
        };
    }

    @Test
    void publicNameResolvesOnceAndDialsTheCheckedAddress() {
        DirectDestination d = policy().build().resolveForDirect("public.example", 80, false);
        DirectDestination.Dial dial = assertInstanceOf(DirectDestination.Dial.class, d);
        assertArrayEquals(
                new byte[] {93, (byte) 184, (byte) 216, 34}, dial.address().getAddress());
        assertEquals("public.example", dial.address().getHostName()); // carried, not looked up again
        assertEquals(1, lookups.get());
    }

    @Test
    void everyResolvedAddressIsChecked() {
        DestinationPolicy p = policy().build();
        assertEquals("93.184.216.34", outcome(p.resolveForDirect("dual.example", 443, true)));
        assertEquals("loopback", outcome(p.resolveForDirect("rebind.example", 80, false)));
        assertEquals("metadata", outcome(p.resolveForDirect("meta.example", 80, false)));
        assertEquals("unique_local", outcome(p.resolveForDirect("ula.example", 80, false)));
        assertEquals("private", outcome(p.resolveForDirect("mapped.example", 80, false)));
        assertEquals("unresolvable", outcome(p.resolveForDirect("nx.example", 80, false)));
        assertEquals(6, lookups.get());
    }

    @Test
    void namesAndLiteralsDeniedBeforeResolutionNeverReachDns() {
        DestinationPolicy p = policy().build();
        assertEquals("metadata", outcome(p.resolveForDirect("metadata.google.internal", 80, false)));
        assertEquals("loopback", outcome(p.resolveForDirect("localhost", 80, false)));
        assertEquals("loopback", outcome(p.resolveForDirect("0x7f.1", 80, false)));
        assertEquals("connect_port", outcome(p.resolveForDirect("public.example", 22, true)));
        assertEquals("bad_target", outcome(p.resolveForDirect("1.2.3.4.5", 80, false)));
        assertEquals(0, lookups.get());
    }

    @Test
    void literalsAreDialedWithoutALookup() {
        DestinationPolicy p = policy().allowDestinations(List.of("127.0.0.0/8")).build();
        assertEquals("127.0.0.1", outcome(p.resolveForDirect("2130706433", 80, false)));
        assertEquals("93.184.216.34", outcome(p.resolveForDirect("93.184.216.34", 80, false)));
        assertEquals("2606:2800:220:1:0:0:0:0", outcome(p.resolveForDirect("[2606:2800:220:1::]", 80, false)));
        assertEquals(0, lookups.get());
    }

    @Test
    void allowListedNameSkipsAddressClassesButNotTheOwnListener() throws Exception {
        DestinationPolicy p = policy().allowDestinations(List.of("localhost", "self.example"))
                .ownListener(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 8080))
                .build();
        assertEquals("127.0.0.1", outcome(p.resolveForDirect("localhost", 9000, false)));
        assertEquals("own_listener", outcome(p.resolveForDirect("self.example", 8080, false)));
        assertEquals("127.0.0.1", outcome(p.resolveForDirect("self.example", 8081, false)));
        assertEquals("loopback", outcome(p.resolveForDirect("rebind.example", 80, false)));
    }

    @Test
    void aRebindingResolverIsAskedOncePerDecision() {
        AtomicInteger calls = new AtomicInteger();
        DestinationPolicy p = DestinationPolicy.builder()
                .resolver(host -> {
                    int n = calls.incrementAndGet();
                    return new InetAddress[] {InetAddress.getByName(n == 1 ? "93.184.216.34" : "127.0.0.1")};
                })
                .build();
        DirectDestination.Dial dial =
                assertInstanceOf(DirectDestination.Dial.class, p.resolveForDirect("flip.example", 80, false));
        assertEquals(1, calls.get());
        assertEquals("93.184.216.34", dial.address().getHostAddress()); // the checked address, not a second answer
        assertEquals("loopback", outcome(p.resolveForDirect("flip.example", 80, false)));
    }
}
