package dev.proxypool.sdk.provider;

import static dev.proxypool.sdk.provider.Fx.fetch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.sequential.FetchOutcome;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One JSONL record per row: which drop reason it earns, or {@code kept}. The clock stands at
 * 2026-01-01T00:00:00Z (epoch 1767225600).
 */
class RecordValidationTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            {"host": "203.0.113.1", "port": 80, "protocol": "http"}                          | kept
            {"host": "203.0.113.1", "port": 80, "protocol": "http"}   trailing               | malformed_record
            {"host": "", "port": 80, "protocol": "http"}                                      | missing_host
            {"host": null, "port": 80, "protocol": "http"}                                    | missing_host
            {"host": "bad host", "port": 80, "protocol": "http"}                              | invalid_host
            {"host": "256.1.1.1", "port": 80, "protocol": "http"}                             | invalid_host
            {"host": "1.2.3", "port": 80, "protocol": "http"}                                 | invalid_host
            {"host": "-dash.example", "port": 80, "protocol": "http"}                         | invalid_host
            {"host": "fe80::1%eth0", "port": 80, "protocol": "http"}                          | invalid_host
            {"host": "user@203.0.113.1", "port": 80, "protocol": "http"}                      | invalid_host
            {"host": ["203.0.113.1"], "port": 80, "protocol": "http"}                         | invalid_host
            {"host": "203.0.113.1", "protocol": "http"}                                       | missing_port
            {"host": "203.0.113.1", "port": "eighty", "protocol": "http"}                     | invalid_port
            {"host": "203.0.113.1", "port": 80.5, "protocol": "http"}                         | invalid_port
            {"host": "203.0.113.1", "port": 0, "protocol": "http"}                            | port_out_of_range
            {"host": "203.0.113.1", "port": 65536, "protocol": "http"}                        | port_out_of_range
            {"host": "203.0.113.1", "port": 65535, "protocol": "socks4a"}                     | kept
            {"host": "203.0.113.1", "port": 80}                                               | missing_protocol
            {"host": "203.0.113.1", "port": 80, "protocol": "ftp"}                            | invalid_protocol
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "credentialRef": "a b"}   | invalid_credential_ref
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "ttlSeconds": 0}          | invalid_ttl
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "ttlSeconds": 1.5}        | invalid_ttl
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "ttlSeconds": "x"}        | invalid_ttl
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "ttlSeconds": 1e12}       | invalid_ttl
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "expiresAt": "tomorrow"}  | invalid_expires_at
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "expiresAt": "2026-01-01T05:00:00"} | invalid_expires_at
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "expiresAt": 1767225600}  | expired
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "expiresAt": "2025-12-31T23:59:59Z"} | expired
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "labels": {"": "x"}}      | invalid_label
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "labels": {"a b": "x"}}   | invalid_label
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "labels": {"k": {"x": 1}}} | invalid_label
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "labels": "country=US"}   | invalid_label
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "maxConcurrency": 0}      | invalid_max_concurrency
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "weight": -1}             | invalid_weight
            {"host": "203.0.113.1", "port": 80, "protocol": "http", "weight": "heavy"}        | invalid_weight
            """)
    void eachRecordIsKeptOrDroppedForOneNamedReason(String line, String expected) {
        Fx fx = new Fx(dir);
        FetchReport report = fetch(fx.adapter("jsonl_inventory", Map.of("path", fx.file("r.jsonl", line + "\n"))));
        if (expected.equals("kept")) {
            assertEquals(1, report.candidates().size(), report::toString);
        } else {
            assertEquals(Map.of(expected, 1), report.drops(), report::toString);
            assertEquals(
                    expected.equals("malformed_record")
                            ? new FetchOutcome.Error(
                                    FetchOutcome.ErrorKind.PARSE, "no record could be read (1 malformed, first at 1)")
                            : FetchOutcome.EMPTY,
                    report.outcome());
        }
    }

    @ParameterizedTest(name = "{0} + {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            "expiresAt": 1767229200                             | auto         | 2026-01-01T01:00:00Z
            "expiresAt": "1767229200"                           | auto         | 2026-01-01T01:00:00Z
            "expiresAt": 1767229200000                          | auto         | 2026-01-01T01:00:00Z
            "expiresAt": "2026-01-01T03:00:00+02:00"            | auto         | 2026-01-01T01:00:00Z
            "expiresAt": 1767229200000                          | epochMillis  | 2026-01-01T01:00:00Z
            "expiresAt": 1767229200                             | epochSeconds | 2026-01-01T01:00:00Z
            "expiresAt": "2026-01-01T01:00:00Z"                 | iso8601      | 2026-01-01T01:00:00Z
            "ttlSeconds": 3600                                  | auto         | 2026-01-01T01:00:00Z
            "ttlSeconds": 60, "expiresAt": 1767229200           | auto         | 2026-01-01T00:01:00Z
            "ttlSeconds": 7200, "expiresAt": 1767229200         | auto         | 2026-01-01T01:00:00Z
            """)
    void expiryFormsAndTheEarlierOfTtlAndExpiresAtWins(String fields, String format, String expected) {
        Fx fx = new Fx(dir);
        String line = "{\"host\": \"203.0.113.1\", \"port\": 80, \"protocol\": \"http\", " + fields + "}\n";
        FetchReport report = fetch(
                fx.adapter("jsonl_inventory", Map.of("path", fx.file("r.jsonl", line), "expiresAtFormat", format)));
        assertEquals(Instant.parse(expected), report.candidates().get(0).expiresAt(), report::toString);
    }

    /** {@code YYYY-MM-DD HH:MM:SS} (many list APIs' {@code expire_time}): in {@code expiresAtZone}, UTC by default. */
    @ParameterizedTest(name = "{0} {1} {2} -> {3}")
    @CsvSource(delimiter = '|', textBlock = """
            2026-01-01 01:00:00         | dateTime |               | 2026-01-01T01:00:00Z
            2026-01-01T01:00:00         | dateTime |               | 2026-01-01T01:00:00Z
            2026-01-01 09:00:00         | dateTime | Asia/Shanghai | 2026-01-01T01:00:00Z
            2026-01-01 09:00:00.5       | dateTime | +08:00        | 2026-01-01T01:00:00.500Z
            2026-01-01 09:00:00         | auto     | Asia/Shanghai | 2026-01-01T01:00:00Z
            2026-01-01T03:00:00+02:00   | auto     | Asia/Shanghai | 2026-01-01T01:00:00Z
            2026-01-01 09:00:00         | auto     |               | invalid_expires_at
            2026-01-01 09:00            | dateTime | Asia/Shanghai | invalid_expires_at
            2026-01-01T03:00:00+02:00   | dateTime |               | invalid_expires_at
            1767229200                  | dateTime |               | invalid_expires_at
            2026-01-01 08:00:00         | dateTime | Asia/Shanghai | expired
            """)
    void aDateAndTimeWithoutAnOffsetReadsInTheConfiguredZone(
            String expiresAt, String format, String zone, String expected) {
        Fx fx = new Fx(dir);
        String line = "{\"host\": \"203.0.113.1\", \"port\": 80, \"protocol\": \"http\", \"expiresAt\": \"" + expiresAt
                + "\"}\n";
        Map<String, String> settings =
                new HashMap<>(Map.of("path", fx.file("r.jsonl", line), "expiresAtFormat", format));
        if (zone != null) {
            settings.put("expiresAtZone", zone);
        }
        FetchReport report = fetch(fx.adapter("jsonl_inventory", settings));
        if (expected.endsWith("Z")) {
            assertEquals(Instant.parse(expected), report.candidates().get(0).expiresAt(), report::toString);
        } else {
            assertEquals(Map.of(expected, 1), report.drops(), report::toString);
        }
    }

    @Test
    void anUnknownZoneIsRefusedAtLoadNamingTheKey() {
        Fx fx = new Fx(dir);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> fx.adapter(
                        "jsonl_inventory",
                        Map.of(
                                "path",
                                fx.file("r.jsonl", "\n"),
                                "expiresAtFormat",
                                "dateTime",
                                "expiresAtZone",
                                "Mars/Olympus")));
        assertEquals(
                "providers[p].expiresAtZone: unknown time zone 'Mars/Olympus' (an IANA name such as Asia/Shanghai,"
                        + " or an offset such as +08:00)",
                e.getMessage());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            2001:DB8:0:0:0:0:0:1      | 2001:db8::1
            [2001:db8::1]             | 2001:db8::1
            2001:db8:0:1:0:0:0:0      | 2001:db8:0:1::
            ::ffff:203.0.113.5        | 203.0.113.5
            Proxy-1.Example.NET       | proxy-1.example.net
            """)
    void hostsAreNormalizedSoSpellingsOfOneAddressDedupe(String host, String expected) {
        Fx fx = new Fx(dir);
        String line = "{\"host\": \"" + host + "\", \"port\": 80, \"protocol\": \"http\"}\n";
        FetchReport report = fetch(fx.adapter("jsonl_inventory", Map.of("path", fx.file("r.jsonl", line))));
        assertEquals(expected, report.candidates().get(0).host());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            static only                  | {}                               | | type=residential,country=DE
            param beats static           | {}                               | US | type=residential,country=US
            record beats param           | {"country": "FR"}                | US | type=residential,country=FR
            """)
    void labelPrecedenceIsStaticThenParamThenRecord(String name, String recordLabels, String param, String expected) {
        Fx fx = new Fx(dir);
        String line =
                "{\"host\": \"203.0.113.1\", \"port\": 80, \"protocol\": \"http\", \"labels\": " + recordLabels + "}\n";
        ProviderAdapter adapter = fx.adapter(
                "jsonl_inventory",
                Map.of("path", fx.file("r.jsonl", line), "labels.type", "residential", "labels.country", "DE"));
        FetchReport report = fetch(adapter, param == null ? Map.of() : Map.of("country", param));
        Map<String, String> labels = new HashMap<>();
        for (String kv : expected.split(",")) {
            labels.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }
        assertEquals(Labels.of(labels), report.candidates().get(0).labels());
    }
}
