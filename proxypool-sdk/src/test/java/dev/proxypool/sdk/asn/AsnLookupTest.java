package dev.proxypool.sdk.asn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proxypool.core.model.ExitNetwork;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AsnLookupTest {

    private static AsnDatabase parse(String csv) throws AsnFormatException {
        return AsnCsvParser.parse(csv.getBytes(StandardCharsets.UTF_8));
    }

    private static final AsnDatabase DOC;

    static {
        try {
            DOC = parse(DocumentationDatabaseTest.generate());
        } catch (AsnFormatException e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest(name = "{0} -> AS{1}")
    @CsvSource(delimiter = '|', textBlock = """
            192.0.2.0                                | 64496 | DOC-NET-1 | 192.0.2.0    | 192.0.2.0/24
            192.0.2.255                              | 64496 | DOC-NET-1 | 192.0.2.255  | 192.0.2.0/24
            192.0.1.255                              | 0     |           | 192.0.1.255  | 192.0.1.0/24
            192.0.3.0                                | 0     |           | 192.0.3.0    | 192.0.3.0/24
            198.51.100.77                            | 64497 | DOC-NET-2 | 198.51.100.77 | 198.51.100.0/24
            203.0.113.7                              | 64498 | DOC-NET-3 | 203.0.113.7  | 203.0.113.0/24
            203.0.114.0                              | 0     |           | 203.0.114.0  | 203.0.114.0/24
            ::ffff:192.0.2.9                         | 64496 | DOC-NET-1 | 192.0.2.9    | 192.0.2.0/24
            2001:db8::                               | 64499 | DOC-NET-6 | 2001:db8::   | 2001:db8::/48
            2001:DB8:0001:0002::3                    | 64499 | DOC-NET-6 | 2001:db8:1:2::3 | 2001:db8:1::/48
            [2001:db8::1]                            | 64499 | DOC-NET-6 | 2001:db8::1  | 2001:db8::/48
            2001:db8:ffff:ffff:ffff:ffff:ffff:ffff   | 64499 | DOC-NET-6 | 2001:db8:ffff:ffff:ffff:ffff:ffff:ffff | 2001:db8:ffff::/48
            2001:db7:ffff:ffff:ffff:ffff:ffff:ffff   | 0     |           | 2001:db7:ffff:ffff:ffff:ffff:ffff:ffff | 2001:db7:ffff::/48
            2001:db9::                               | 0     |           | 2001:db9::   | 2001:db9::/48
            """)
    void rangeBoundariesAreInclusiveForBothFamilies(String ip, long asn, String org, String exitIp, String prefix) {
        assertEquals(new ExitNetwork(exitIp, asn, org == null ? "" : org, prefix), DOC.lookup(ip));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            10.1.2.3
            127.0.0.1
            169.254.10.1
            100.64.0.1
            100.127.255.255
            172.16.5.4
            172.31.255.255
            192.168.1.1
            0.0.0.0
            192.0.0.8
            198.18.0.1
            224.0.0.1
            240.0.0.1
            255.255.255.255
            ::
            ::1
            64:ff9b::c000:201
            100::1
            fc00::1
            fd12:3456::1
            fe80::1
            fec0::1
            ff02::1
            """)
    void specialPurposeAddressesAreUnknownEvenWhenTheTableListsThem(String ip) throws AsnFormatException {
        AsnDatabase everything = parse("""
                0.0.0.0,255.255.255.255,64500,EVERYTHING-V4
                ::,ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff,64501,EVERYTHING-V6
                """);
        ExitNetwork n = everything.lookup(ip);
        assertEquals(0, n.asn(), n::toString);
        assertEquals("", n.organization());
        assertEquals(64500, everything.lookup("8.8.8.8").asn(), "a public address is found");
        assertEquals(64501, everything.lookup("2a00::1").asn());
    }

    @Test
    void documentationRangesMissingFromARealTableAreUnknown() throws AsnFormatException {
        AsnDatabase real = parse("1.0.0.0,1.0.0.255,13335,CLOUDFLARENET\n");
        assertEquals(0, real.lookup("203.0.113.7").asn());
        assertEquals(0, real.lookup("2001:db8::1").asn());
        assertEquals(13335, real.lookup("1.0.0.1").asn());
    }

    @Test
    void rangesAcrossTheSignBitSortAndMatchInUnsignedOrder() throws AsnFormatException {
        AsnDatabase db = parse("""
                200.0.0.0,200.0.0.255,3,HIGH
                126.255.255.0,128.0.0.255,2,ACROSS
                1.0.0.0,1.0.0.255,1,LOW
                """);
        assertEquals(0, db.lookup("127.0.0.1").asn(), "loopback stays unknown inside a listed range");
        assertEquals(2, db.lookup("126.255.255.9").asn());
        assertEquals(2, db.lookup("128.0.0.255").asn());
        assertEquals(3, db.lookup("200.0.0.1").asn());
        assertEquals(1, db.lookup("1.0.0.0").asn());
        assertEquals(0, db.lookup("128.0.1.0").asn());
        assertEquals(3, db.asnOfIpv4(IpAddresses.v4(200, 0, 0, 200)));
        assertEquals(0, db.asnOfIpv4(IpAddresses.v4(10, 0, 0, 1)));
    }

    @Test
    void ipv6RangesAcrossTheSignBit() throws AsnFormatException {
        AsnDatabase db = parse("""
                7fff:ffff:ffff:ffff:ffff:ffff:ffff:ff00,8000::0:ff,4,V6-ACROSS
                8000::1:0,8000::1:ff,5,V6-HIGH
                """);
        assertEquals(4, db.lookup("7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff").asn());
        assertEquals(4, db.lookup("8000::").asn());
        assertEquals(4, db.lookup("8000::ff").asn());
        assertEquals(0, db.lookup("8000::100").asn());
        assertEquals(5, db.lookup("8000::1:80").asn());
    }

    @Test
    void aNameIsNeverResolved() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DOC.lookup("example.com"));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("example.com"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DOC.lookup("fe80::1%eth0"));
        assertEquals(
                ExitNetwork.UNKNOWN.asn(), AsnDatabase.EMPTY.lookup("192.0.2.1").asn());
    }
}
