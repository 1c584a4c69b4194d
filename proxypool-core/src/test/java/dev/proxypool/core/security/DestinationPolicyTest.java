package dev.proxypool.core.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The SSRF table (smokescreen style): every spelling of every denied class, public examples that
 * must pass, and the overrides. Expected column: {@code allow} or a {@link DenyReason#code()}.
 */
class DestinationPolicyTest {

    private static final DestinationPolicy DEFAULT = DestinationPolicy.builder().build();

    private static String verdict(DestinationPolicy p, String host, int port, boolean connect) {
        return switch (p.check(host, port, connect)) {
            case DestinationVerdict.Allowed a -> "allow";
            case DestinationVerdict.Denied d -> d.reason().code();
        };
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                // loopback in every spelling
                "127.0.0.1                 | loopback",
                "127.255.255.254           | loopback",
                "127.1                     | loopback",
                "127.0.1                   | loopback",
                "2130706433                | loopback",
                "0177.0.0.1                | loopback",
                "0177.1                    | loopback",
                "0x7f.1                    | loopback",
                "0x7F.0.0.1                | loopback",
                "0x7f000001                | loopback",
                "017700000001              | loopback",
                "127.000.000.001           | loopback",
                "127.0.0.1.                | loopback",
                "::1                       | loopback",
                "[::1]                     | loopback",
                "0:0:0:0:0:0:0:1           | loopback",
                "::ffff:127.0.0.1          | loopback",
                "[::ffff:7f00:1]           | loopback",
                "::127.0.0.1               | loopback",
                "::ffff:0:127.0.0.1        | loopback",
                "64:ff9b::127.0.0.1        | loopback",
                "64:ff9b::7f00:1           | loopback",
                "2002:7f00:1::             | loopback",
                "2001:0:4136:e378:8000:63bf:80ff:fffe | loopback",
                "localhost                 | loopback",
                "LOCALHOST                 | loopback",
                "localhost.                | loopback",
                "api.localhost             | loopback",
                "localhost.localdomain     | loopback",
                // unspecified
                "0.0.0.0                   | unspecified",
                "0                         | unspecified",
                "0.1.2.3                   | unspecified",
                "0x                        | unspecified",
                "::                        | unspecified",
                "[::]                      | unspecified",
                "::ffff:0.0.0.0            | unspecified",
                // RFC 1918 and friends
                "10.0.0.1                  | private",
                "10.255.255.255            | private",
                "167772161                 | private",
                "0xa.0.0.1                 | private",
                "012.0.0.1                 | private",
                "010.8.8.8                 | private",
                "172.16.0.1                | private",
                "172.31.255.255            | private",
                "192.168.1.1               | private",
                "0xc0.0xa8.1.1             | private",
                "3232235777                | private",
                "::ffff:10.0.0.1           | private",
                "::ffff:a00:1              | private",
                "64:ff9b::10.0.0.1         | private",
                "2002:c0a8:101::1          | private",
                "fec0::1                   | private",
                "64:ff9b:1::1              | private",
                // carrier-grade NAT
                "100.64.0.1                | carrier_grade_nat",
                "100.127.255.255           | carrier_grade_nat",
                // link-local
                "169.254.1.1               | link_local",
                "fe80::1                   | link_local",
                "[fe80::1]                 | link_local",
                "febf::1                   | link_local",
                // cloud metadata, any spelling
                "169.254.169.254           | metadata",
                "0xa9fea9fe                | metadata",
                "2852039166                | metadata",
                "0251.0376.0251.0376       | metadata",
                "169.254.43518             | metadata",
                "::ffff:169.254.169.254    | metadata",
                "::ffff:a9fe:a9fe          | metadata",
                "64:ff9b::a9fe:a9fe        | metadata",
                "2002:a9fe:a9fe::          | metadata",
                "169.254.170.2             | metadata",
                "100.100.100.200           | metadata",
                "fd00:ec2::254             | metadata",
                "metadata.google.internal  | metadata",
                "METADATA.GOOGLE.INTERNAL. | metadata",
                "metadata                  | metadata",
                "metadata.goog             | metadata",
                "instance-data             | metadata",
                "instance-data.ec2.internal | metadata",
                // multicast, broadcast
                "224.0.0.1                 | multicast",
                "239.255.255.250           | multicast",
                "ff02::1                   | multicast",
                "ff05::1:3                 | multicast",
                "::ffff:224.0.0.1          | multicast",
                "255.255.255.255           | broadcast",
                "4294967295                | broadcast",
                "0xffffffff                | broadcast",
                // unique local
                "fc00::1                   | unique_local",
                "fd12:3456::1              | unique_local",
                // reserved, documentation, deprecated embeddings of public IPv4
                "240.0.0.1                 | reserved",
                "192.0.0.1                 | reserved",
                "192.0.2.1                 | reserved",
                "198.51.100.1              | reserved",
                "203.0.113.5               | reserved",
                "198.18.0.1                | reserved",
                "198.19.255.255            | reserved",
                "2001:db8::1               | reserved",
                "3fff::1                   | reserved",
                "100::1                    | reserved",
                "::2                       | reserved",
                "::8.8.8.8                 | reserved",
                "::ffff:0:8.8.8.8          | reserved",
                "4000::1                   | reserved",
                // local-only names
                "intranet                  | local_name",
                "db                        | local_name",
                "printer.local             | local_name",
                "foo.internal              | local_name",
                "router.home.arpa          | local_name",
                "kubernetes.default.svc    | local_name",
                "kubernetes.default        | local_name",
                "host.localdomain          | local_name",
                "nas.lan                   | local_name",
                // not a valid host: refuse rather than guess
                "1.2.3.4.5                 | bad_target",
                "256.1.1.1                 | bad_target",
                "1.2.3.256                 | bad_target",
                "1.2.65536                 | bad_target",
                "4294967296                | bad_target",
                "0x100000000               | bad_target",
                "example.123               | bad_target",
                "08.1.2.3                  | bad_target",
                "09                        | bad_target",
                "a..b                      | bad_target",
                "exa mple.com              | bad_target",
                "ex*ample.com              | bad_target",
                "[127.0.0.1]               | bad_target",
                "[::1                      | bad_target",
                "fe80::1%eth0              | bad_target",
                "[fe80::1%25eth0]          | bad_target",
                "::ffff:012.0.0.1          | bad_target",
                "::ffff:1.2.3              | bad_target",
                "1:2:3:4:5:6:7:8:9         | bad_target",
                "1::2::3                   | bad_target",
                ":1                        | bad_target",
                "1:                        | bad_target",
                "12345::1                  | bad_target",
                "g::1                      | bad_target",
                // public destinations pass
                "93.184.216.34             | allow",
                "1572395042                | allow",
                "example.com               | allow",
                "EXAMPLE.COM.              | allow",
                "www.example.com           | allow",
                "xn--bcher-kva.example     | allow",
                "2606:2800:220:1::         | allow",
                "[2606:2800:220:1::]       | allow",
                "2606:2800:220:1:248:1893:25c8:1946 | allow",
                "2001:4860:4860::8888      | allow",
                "8.8.8.8                   | allow",
                "1.1.1.1                   | allow",
                "::ffff:93.184.216.34      | allow",
                "64:ff9b::8.8.8.8          | allow",
                "2002:5db8:d822::1         | allow",
                "172.15.255.255            | allow",
                "172.32.0.1                | allow",
                "11.0.0.1                  | allow",
                "192.169.0.1               | allow",
                "100.63.255.255            | allow",
                "100.128.0.0               | allow",
                "169.253.255.255           | allow",
                "223.255.255.255           | allow",
                "077.1.2.3                 | allow",
            })
    void defaultPolicyTable(String host, String expected) {
        assertEquals(expected, verdict(DEFAULT, host, 80, false), host);
    }

    @ParameterizedTest(name = "{0}:{1} connect={2} -> {3}")
    @CsvSource(
            delimiter = '|',
            value = {
                "example.com | 443   | true  | allow",
                "example.com | 8443  | true  | allow",
                "example.com | 80    | true  | connect_port",
                "example.com | 22    | true  | connect_port",
                "example.com | 25    | true  | connect_port",
                "example.com | 22    | false | allow",
                "example.com | 8080  | false | allow",
                "example.com | 0     | false | bad_target",
                "example.com | 65536 | false | bad_target",
                "127.0.0.1   | 443   | true  | loopback",
            })
    void connectPorts(String host, int port, boolean connect, String expected) {
        assertEquals(expected, verdict(DEFAULT, host, port, connect));
    }

    @Test
    void configuredConnectPortsReplaceTheDefaultsAndEmptyRefusesEveryConnect() {
        DestinationPolicy custom =
                DestinationPolicy.builder().connectPorts(List.of(443, 5000)).build();
        assertEquals("allow", verdict(custom, "example.com", 5000, true));
        assertEquals("connect_port", verdict(custom, "example.com", 8443, true));
        DestinationPolicy none =
                DestinationPolicy.builder().connectPorts(List.of()).build();
        assertEquals("connect_port", verdict(none, "example.com", 443, true));
        assertEquals("allow", verdict(none, "example.com", 443, false));
        DestinationPolicy any = DestinationPolicy.builder().anyConnectPort().build();
        assertEquals("allow", verdict(any, "example.com", 22, true));
        assertEquals("loopback", verdict(any, "127.0.0.1", 22, true));
        assertThrows(
                IllegalArgumentException.class,
                () -> DestinationPolicy.builder().connectPorts(List.of(443, 70000)));
    }

    @ParameterizedTest(name = "allow {0}: {1} -> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "127.0.0.0/8          | 127.0.0.1                | allow",
                "127.0.0.0/8          | 0x7f.1                   | allow",
                "127.0.0.0/8          | 2130706433               | allow",
                "127.0.0.0/8          | ::ffff:127.0.0.1         | allow",
                "127.0.0.0/8          | ::1                      | loopback",
                "127.0.0.0/8          | 10.0.0.1                 | private",
                "127.0.0.0/8          | localhost                | loopback",
                "::1                  | ::1                      | allow",
                "[::1]                | [::1]                    | allow",
                "::1/128              | ::2                      | reserved",
                "fd00::/8             | fd12::1                  | allow",
                "fd00::/8             | fc00::1                  | unique_local",
                "10.1.0.0/16          | 10.1.2.3                 | allow",
                "10.1.0.0/16          | 10.2.0.1                 | private",
                "10.1.2.3             | 10.1.2.3                 | allow",
                "10.1.2.3             | 10.1.2.4                 | private",
                "localhost            | localhost                | allow",
                "localhost            | LOCALHOST.               | allow",
                "localhost            | api.localhost            | loopback",
                "*.localhost          | api.localhost            | allow",
                "*.localhost          | localhost                | loopback",
                "*.internal           | db.internal              | allow",
                "*.internal           | metadata.google.internal | allow",
                "db                   | db                       | allow",
                "169.254.169.254/32   | 169.254.169.254          | allow",
                "169.254.169.254      | 0xa9fea9fe               | allow",
                "169.254.0.0/16       | 169.254.169.254          | allow",
                "169.254.0.0/16       | 169.254.1.1              | allow",
                "0.0.0.0/0            | 10.0.0.1                 | allow",
                "0.0.0.0/0            | ::1                      | loopback",
            })
    void allowListOverridesTheDenyTable(String entry, String host, String expected) {
        DestinationPolicy p =
                DestinationPolicy.builder().allowDestinations(List.of(entry)).build();
        assertEquals(expected, verdict(p, host, 80, false));
    }

    @ParameterizedTest(name = "allowPrivateDestinations: {0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "127.0.0.1                | allow",
                "0x7f.1                   | allow",
                "::1                      | allow",
                "localhost                | allow",
                "10.0.0.1                 | allow",
                "192.168.0.10             | allow",
                "100.64.0.1               | allow",
                "169.254.1.1              | allow",
                "fe80::1                  | allow",
                "fd00::1                  | allow",
                "printer.local            | allow",
                "::ffff:10.0.0.1          | allow",
                "169.254.169.254          | metadata",
                "::ffff:169.254.169.254   | metadata",
                "fd00:ec2::254            | metadata",
                "100.100.100.200          | metadata",
                "metadata.google.internal | metadata",
                "224.0.0.1                | multicast",
                "255.255.255.255          | broadcast",
                "0.0.0.0                  | unspecified",
                "240.0.0.1                | reserved",
                "1.2.3.4.5                | bad_target",
            })
    void allowPrivateDestinationsNeverAllowsMetadata(String host, String expected) {
        DestinationPolicy p =
                DestinationPolicy.builder().allowPrivateDestinations(true).build();
        assertEquals(expected, verdict(p, host, 80, false));
    }

    @Test
    void metadataNeedsAnExplicitEntryEvenWithPrivateAllowed() {
        DestinationPolicy p = DestinationPolicy.builder()
                .allowPrivateDestinations(true)
                .allowDestinations(List.of("169.254.169.254"))
                .build();
        assertEquals("allow", verdict(p, "169.254.169.254", 80, false));
        assertEquals("metadata", verdict(p, "metadata.google.internal", 80, false));
    }

    @Test
    void ownListenerIsDeniedEvenWhenAllowListed() throws Exception {
        DestinationPolicy p = DestinationPolicy.builder()
                .allowDestinations(List.of("127.0.0.0/8", "localhost", "::1"))
                .ownListener(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 8080))
                .build();
        assertEquals("own_listener", verdict(p, "127.0.0.1", 8080, false));
        assertEquals("own_listener", verdict(p, "2130706433", 8080, false));
        assertEquals("own_listener", verdict(p, "::ffff:127.0.0.1", 8080, false));
        assertEquals("own_listener", verdict(p, "0.0.0.0", 8080, false));
        assertEquals("own_listener", verdict(p, "localhost", 8080, false));
        assertEquals("allow", verdict(p, "127.0.0.1", 8081, false));
        assertEquals("allow", verdict(p, "127.0.0.2", 8080, false));
        assertEquals("allow", verdict(p, "localhost", 9999, false));
    }

    @Test
    void wildcardListenerCoversLoopbackAndEveryLocalAddress() throws Exception {
        DestinationPolicy p = DestinationPolicy.builder()
                .allowPrivateDestinations(true)
                .ownListener(new InetSocketAddress(8080))
                .localAddresses(List.of(InetAddress.getByName("10.1.2.3"), InetAddress.getByName("fd00::5")))
                .build();
        assertEquals("own_listener", verdict(p, "10.1.2.3", 8080, false));
        assertEquals("own_listener", verdict(p, "fd00::5", 8080, false));
        assertEquals("own_listener", verdict(p, "127.5.5.5", 8080, false));
        assertEquals("own_listener", verdict(p, "::1", 8080, false));
        assertEquals("own_listener", verdict(p, "localhost", 8080, false));
        assertEquals("allow", verdict(p, "10.1.2.4", 8080, false));
        assertEquals("allow", verdict(p, "10.1.2.3", 8081, false));
    }

    @Test
    void realInterfaceEnumerationFindsLoopbackListener() {
        DestinationPolicy p = DestinationPolicy.builder()
                .ownListener(new InetSocketAddress(18080))
                .build();
        assertEquals("own_listener", verdict(p, "127.0.0.1", 18080, false));
        assertEquals("allow", verdict(p, "93.184.216.34", 18080, false));
    }

    @ParameterizedTest(name = "bad allow-list entry {0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "127.1/8",
                "0x7f.0.0.1",
                "10.0.0.0/33",
                "::1/129",
                "10.0.0.0/",
                "10.0.0.0/x",
                "'  '",
                "*",
                "*.",
                "bad host!",
                "1.2.3.4.5",
                "127.1",
                "[::1",
                "fe80::1%eth0"
            })
    void badAllowListEntriesAreRefusedNamingTheKey(String entry) {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> DestinationPolicy.builder()
                        .allowDestinations(List.of("127.0.0.0/8", entry))
                        .build());
        assertTrue(e.getMessage().startsWith("security.allowDestinations[1]"), e.getMessage());
    }
}
