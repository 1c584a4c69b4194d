package dev.proxypool.sdk.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.proxypool.core.model.Anonymity;
import java.net.InetAddress;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The judgement of what reached the echo endpoint, header by header. */
class ExposureTest {

    private static final Set<InetAddress> DIRECT =
            Set.of(InetAddress.ofLiteral("198.51.100.7"), InetAddress.ofLiteral("2001:db8::7"));
    private static final InetAddress EXIT = InetAddress.ofLiteral("203.0.113.9");

    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                // header                | value                                            | verdict
                "X-Forwarded-For         | 198.51.100.7                                     | address_leaked",
                "X-Forwarded-For         | 10.1.1.1, 198.51.100.7                           | address_leaked",
                "x-forwarded-for         | 198.51.100.7:51234                               | address_leaked",
                "X-Forwarded-For         | ::ffff:198.51.100.7                              | address_leaked",
                "X-Forwarded-For         | 198.51.100.70                                    | anonymous",
                "X-Forwarded-For         | unknown                                          | anonymous",
                "Forwarded               | for=198.51.100.7;proto=http;by=203.0.113.9       | address_leaked",
                "Forwarded               | for=\"[2001:db8:0:0::7]:4711\"                   | address_leaked",
                "Forwarded               | for=_hidden;by=203.0.113.9                       | anonymous",
                "X-Real-IP               | 198.51.100.7                                     | address_leaked",
                "Client-IP               | 198.51.100.7                                     | address_leaked",
                "True-Client-IP          | 2001:DB8::7                                      | address_leaked",
                "X-Client-IP             | 198.51.100.7                                     | address_leaked",
                "X-Real-IP               | 203.0.113.9                                      | anonymous",
                "Via                     | 1.1 squid                                        | anonymous",
                "X-Forwarded-Host        | 198.51.100.7:9090                                | anonymous",
                "X-Proxy-ID              | 12345                                            | anonymous",
                "Accept                  | application/json                                 | elite",
                "User-Agent              | agent 198.51.100.7                               | elite",
            })
    void judgesOneHeader(String name, String value, String expected) {
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.put("Host", "198.51.100.7:9090");
        headers.put(name, value);
        Exposure.Finding f = Exposure.judge(EXIT, new EchoJson.Echo(EXIT.getHostAddress(), headers), DIRECT);
        String got = f.reason() != null ? f.reason().wireName() : f.anonymity().wireName();
        assertEquals(expected, got, f.detail());
    }

    @ParameterizedTest(name = "peer {0}")
    @CsvSource({"198.51.100.7", "2001:db8:0:0:0:0:0:7", "::ffff:198.51.100.7"})
    void theValidatorsOwnAddressAsThePeerIsRejected(String peer) {
        Exposure.Finding f = Exposure.judge(InetAddress.ofLiteral(peer), new EchoJson.Echo(peer, Map.of()), DIRECT);
        assertEquals(RejectReason.DIRECT_ADDRESS_SEEN, f.reason());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "198.51.100.7         | 198.51.100.7",
                "[2001:db8::1]:80     | 2001:db8:0:0:0:0:0:1",
                "\"192.0.2.1:5050\"   | 192.0.2.1",
                "fe80::1%eth0         | fe80:0:0:0:0:0:0:1",
                "unknown              | ",
                "1                    | ",
                "127.1                | ",
                "2130706433           | ",
                "example.com          | ",
                "999.1.1.1            | ",
                "[::1                 | ",
            })
    void findsLiteralsWithoutDns(String token, String expected) {
        InetAddress a = Addresses.literal(token);
        if (expected == null) {
            assertNull(a);
        } else {
            assertEquals(expected, a.getHostAddress());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {"Via | anonymous", "Accept | elite"})
    void anAcceptedFindingCarriesItsAnonymity(String header, String level) {
        Exposure.Finding f =
                Exposure.judge(EXIT, new EchoJson.Echo("203.0.113.9", new TreeMap<>(Map.of(header, "x"))), DIRECT);
        assertNull(f.reason());
        assertEquals(Anonymity.valueOf(level.toUpperCase()), f.anonymity());
    }
}
