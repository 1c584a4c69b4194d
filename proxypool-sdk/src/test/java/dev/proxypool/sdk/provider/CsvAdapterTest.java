package dev.proxypool.sdk.provider;

import static dev.proxypool.sdk.provider.Fx.assertError;
import static dev.proxypool.sdk.provider.Fx.fetch;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.sequential.FetchOutcome;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvAdapterTest {

    private static final Map<String, String> FIELDS =
            Map.of("host", "ip", "protocol", "type", "labels.country", "country_code", "expiresAt", "expires");

    @TempDir
    Path dir;

    @Test
    void mapsColumnsAndCountsBrokenLinesWithTheirLineNumbers() {
        Fx fx = new Fx(dir);
        FetchReport report = fetch(fx.adapter("p", "csv", Map.of("path", fx.resource("proxies.csv")), FIELDS));

        assertEquals(List.of("203.0.113.40", "203.0.113.41", "203.0.113.42"), Fx.hosts(report));
        assertEquals(Labels.of("country", "DE"), report.candidates().get(1).labels());
        assertEquals(Protocol.HTTPS, report.candidates().get(1).protocol());
        assertEquals(3128, report.candidates().get(1).port());
        assertEquals(
                Labels.of("country", "U\"S, quoted"), report.candidates().get(2).labels());
        Instant oneHour = Instant.parse("2026-01-01T01:00:00Z");
        assertEquals(oneHour, report.candidates().get(0).expiresAt(), "epoch seconds");
        assertEquals(oneHour, report.candidates().get(1).expiresAt(), "epoch millis");
        assertEquals(oneHour.plusSeconds(3600), report.candidates().get(2).expiresAt(), "ISO-8601");

        assertEquals(Map.of("malformed_record", 2, "missing_host", 1, "invalid_protocol", 1), report.drops());
        assertEquals(
                List.of(
                        new DropSample(5, "malformed_record"),
                        new DropSample(6, "malformed_record"),
                        new DropSample(7, "missing_host"),
                        new DropSample(8, "invalid_protocol")),
                report.dropSamples());
    }

    @Test
    void otherDelimitersAndHeaderProblems() {
        Fx fx = new Fx(dir);
        String semi = fx.file("a.csv", "host;port;protocol\n203.0.113.1;8080;http\n");
        assertEquals(
                List.of("203.0.113.1"), Fx.hosts(fetch(fx.adapter("csv", Map.of("path", semi, "delimiter", ";")))));
        String tab = fx.file("t.csv", "host\tport\tprotocol\n203.0.113.2\t8080\thttp\n");
        assertEquals(
                List.of("203.0.113.2"), Fx.hosts(fetch(fx.adapter("csv", Map.of("path", tab, "delimiter", "tab")))));

        assertError(FetchOutcome.ErrorKind.PARSE, fetch(fx.adapter("csv", Map.of("path", fx.file("e.csv", "\n\n")))));
        assertError(
                FetchOutcome.ErrorKind.PARSE,
                fetch(fx.adapter("csv", Map.of("path", fx.file("b.csv", "host,\"port\n")))));
        assertError(
                FetchOutcome.ErrorKind.PARSE,
                fetch(fx.adapter("csv", Map.of("path", fx.file("d.csv", "host,host\n")))));
    }

    @Test
    void aHeaderWithNoRowsIsEmpty() {
        Fx fx = new Fx(dir);
        assertEquals(
                FetchOutcome.EMPTY,
                fetch(fx.adapter("csv", Map.of("path", fx.file("h.csv", "host,port,protocol\n"))))
                        .outcome());
    }
}
