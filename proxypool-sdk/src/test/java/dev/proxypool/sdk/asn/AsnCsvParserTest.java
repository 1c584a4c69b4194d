package dev.proxypool.sdk.asn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AsnCsvParserTest {

    private static AsnDatabase parse(String csv) throws AsnFormatException {
        return AsnCsvParser.parse(csv.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsTheIpLocationDbLayoutWithOrWithoutHeaderAndQuotedOrBareOrganizations() throws AsnFormatException {
        AsnDatabase db = parse("""
                \uFEFFip_range_start,ip_range_end,autonomous_system_number,autonomous_system_organization
                1.0.0.0,1.0.0.255,13335,CLOUDFLARENET
                1.0.4.0,1.0.7.255,38803,"Wirefreebroadband Pty Ltd, ""AU""\"
                1.0.16.0,1.0.16.255,AS2519,ARTERIA Networks, Inc.
                2001:200::,2001:200:ffff:ffff:ffff:ffff:ffff:ffff,2500,WIDE Project

                """);
        assertEquals(3, db.ipv4Ranges());
        assertEquals(1, db.ipv6Ranges());
        assertEquals("Wirefreebroadband Pty Ltd, \"AU\"", db.lookup("1.0.5.1").organization());
        assertEquals("ARTERIA Networks, Inc.", db.lookup("1.0.16.1").organization());
        assertEquals(2519, db.lookup("1.0.16.1").asn());
        assertEquals(2500, db.lookup("2001:200::1").asn());
        assertEquals(4, parse("1.0.0.0,1.0.0.255,4,X\n").lookup("1.0.0.1").asn(), "header is optional");
        assertEquals(
                4294967295L,
                parse("1.0.0.0,1.0.0.255,4294967295,MAX\n").lookup("1.0.0.1").asn());
    }

    @Test
    void unsortedInputIsSorted() throws AsnFormatException {
        AsnDatabase db = parse("""
                9.0.0.0,9.0.0.255,9,NINE
                1.0.0.0,1.0.0.255,1,ONE
                5.0.0.0,5.0.0.255,5,FIVE
                2001:db8:2::,2001:db8:2::ff,62,V6-2
                2001:db8:1::,2001:db8:1::ff,61,V6-1
                """);
        assertEquals(1, db.lookup("1.0.0.1").asn());
        assertEquals(5, db.lookup("5.0.0.1").asn());
        assertEquals(9, db.lookup("9.0.0.1").asn());
        assertEquals(61, db.lookup("2001:db8:1::1").asn());
        assertEquals(62, db.lookup("2001:db8:2::1").asn());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            too few fields           | 1.0.0.0,1.0.0.255,13335                    | line 2: expected 4 fields
            bad start                | 1.0.0,1.0.0.255,13335,X                    | line 2: '1.0.0' is not an IP address
            octet over 255           | 1.0.0.256,1.0.1.0,13335,X                  | line 2: '1.0.0.256' is not an IP address
            bad v6                   | 2001:db8:::1,2001:db8::2,1,X               | line 2: '2001:db8:::1' is not an IP address
            mixed families           | 1.0.0.0,2001:db8::1,13335,X                | line 2: start and end are of different address families
            start after end          | 1.0.1.0,1.0.0.255,13335,X                  | line 2: range start is after its end
            v6 start after end       | 2001:db8::2,2001:db8::1,1,X                | line 2: range start is after its end
            bad asn                  | 1.0.0.0,1.0.0.255,thirteen,X               | line 2: 'thirteen' is not an AS number
            negative asn             | 1.0.0.0,1.0.0.255,-1,X                     | line 2: '-1' is not an AS number
            asn too large            | 1.0.0.0,1.0.0.255,4294967296,X             | line 2: AS number 4294967296 is out of range
            unclosed quote           | 1.0.0.0,1.0.0.255,1,"Open org              | line 2: unclosed quote
            stray quote              | 1.0.0.0,1.0.0.255,1,"a"b"                  | line 2: stray quote
            overlap                  | 0.255.255.0,1.0.0.0,1,X                    | line 2: range overlaps the range on line 1
            """)
    void aCorruptLineFailsTheWholeLoadWithItsLineNumber(String name, String line, String message) {
        String csv = "1.0.0.0,1.0.0.255,13335,CLOUDFLARENET\n" + line + "\n3.0.0.0,3.0.0.255,1,OK\n";
        AsnFormatException e = assertThrows(AsnFormatException.class, () -> parse(csv));
        org.junit.jupiter.api.Assertions.assertTrue(
                e.getMessage().startsWith(message),
                () -> "'" + e.getMessage() + "' should start with '" + message + "'");
    }

    @Test
    void nonUtf8IsCorrupt() {
        byte[] bad = {
            '1',
            '.',
            '0',
            '.',
            '0',
            '.',
            '0',
            ',',
            '1',
            '.',
            '0',
            '.',
            '0',
            '.',
            '1',
            ',',
            '1',
            ',',
            (byte) 0xC3,
            (byte) 0x28,
            '\n'
        };
        AsnFormatException e = assertThrows(AsnFormatException.class, () -> AsnCsvParser.parse(bad));
        assertEquals("line 1: not UTF-8 text", e.getMessage());
    }
}
