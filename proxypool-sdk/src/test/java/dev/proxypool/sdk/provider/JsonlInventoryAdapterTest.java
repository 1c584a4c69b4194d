package dev.proxypool.sdk.provider;

import static dev.proxypool.sdk.provider.Fx.assertError;
import static dev.proxypool.sdk.provider.Fx.fetch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.sequential.FetchOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonlInventoryAdapterTest {

    @TempDir
    Path dir;

    @Test
    void readsTheSpecInventoryFormatSkippingCommentsAndBlankLines() {
        Fx fx = new Fx(dir);
        ProviderAdapter adapter =
                fx.adapter("lab", "jsonl_inventory", Map.of("path", fx.resource("inventory.jsonl")), Map.of());
        FetchReport report = adapter.fetch(FetchContext.of("lab-up", Map.of()));

        assertEquals(new FetchOutcome.Success(4), report.outcome());
        assertEquals(Map.of(), report.drops());
        assertEquals(List.of("203.0.113.7", "203.0.113.8", "2001:db8::10", "proxy-1.example.net"), Fx.hosts(report));

        Proxy a = report.candidates().get(0);
        assertEquals(Protocol.HTTP, a.protocol());
        assertEquals(8000, a.port());
        assertEquals(CredentialRef.of("vendor-a"), a.credentialRef());
        assertEquals(Labels.of("country", "US", "type", "residential"), a.labels());
        assertEquals(fx.clock.instant().plusSeconds(1800), a.expiresAt());
        assertEquals("lab", a.provider());
        assertEquals("lab-up", a.upstream());
        assertTrue(a.id().startsWith("p-"));

        Proxy b = report.candidates().get(1);
        assertEquals(Protocol.SOCKS5, b.protocol());
        assertEquals(Instant.parse("2026-01-01T01:00:00Z"), b.expiresAt());
        assertEquals(4, b.maxConcurrency());
        assertEquals(3, b.weight());
        assertEquals(CredentialRef.NONE, b.credentialRef());

        Proxy c = report.candidates().get(2);
        assertEquals(Protocol.HTTPS, c.protocol());
        assertEquals(Proxy.NO_EXPIRY, c.expiresAt());
        assertEquals(10, c.maxConcurrency());

        Proxy d = report.candidates().get(3);
        assertEquals(8080, d.port());
        assertEquals(
                Labels.of("source_asn", "AS64500", "owner", "lab"),
                d.labels(),
                "a feed's asn is kept only as source_asn");
        assertTrue(report.bytesRead() > 0);
    }

    @Test
    void badLinesAreDroppedByReasonWithLineNumbersAndGoodOnesKept() {
        Fx fx = new Fx(dir);
        FetchReport report = fetch(fx.adapter("jsonl_inventory", Map.of("path", fx.resource("inventory-bad.jsonl"))));

        assertEquals(new FetchOutcome.Success(2), report.outcome());
        assertEquals(List.of("203.0.113.20", "203.0.113.27"), Fx.hosts(report));
        assertEquals(
                Map.of(
                        "malformed_record", 2,
                        "missing_host", 1,
                        "missing_port", 1,
                        "port_out_of_range", 1,
                        "invalid_protocol", 1,
                        "invalid_ttl", 1,
                        "invalid_label", 1,
                        "duplicate", 1),
                report.drops());
        assertEquals(9, report.dropped());
        assertEquals(
                List.of(
                        new DropSample(2, "malformed_record"),
                        new DropSample(3, "missing_host"),
                        new DropSample(4, "missing_port"),
                        new DropSample(5, "port_out_of_range"),
                        new DropSample(6, "invalid_protocol"),
                        new DropSample(7, "malformed_record"),
                        new DropSample(8, "invalid_ttl"),
                        new DropSample(9, "invalid_label"),
                        new DropSample(10, "duplicate")),
                report.dropSamples());
    }

    @Test
    void aFileOfOnlyValidRecordsThatAllFailValidationIsEmptyNotAnError() {
        Fx fx = new Fx(dir);
        String name = fx.file("inv.jsonl", """
                {"host": "203.0.113.1", "port": 0, "protocol": "http"}
                {"host": "203.0.113.2", "protocol": "http"}
                """);
        FetchReport report = fetch(fx.adapter("jsonl_inventory", Map.of("path", name)));
        assertEquals(FetchOutcome.EMPTY, report.outcome());
        assertEquals(Map.of("port_out_of_range", 1, "missing_port", 1), report.drops());
    }

    @Test
    void aFileWhereNoLineIsJsonIsAParseErrorNotEmpty() {
        Fx fx = new Fx(dir);
        String name = fx.file("inv.jsonl", "<html>\n<body>oops</body>\n");
        FetchReport report = fetch(fx.adapter("jsonl_inventory", Map.of("path", name)));
        assertError(FetchOutcome.ErrorKind.PARSE, report);
        assertEquals(2, report.dropped(DropReason.MALFORMED_RECORD));
    }

    @Test
    void anEmptyFileIsEmpty() {
        Fx fx = new Fx(dir);
        String name = fx.file("inv.jsonl", "# nothing yet\n\n");
        assertEquals(
                FetchOutcome.EMPTY,
                fetch(fx.adapter("jsonl_inventory", Map.of("path", name))).outcome());
    }

    @Test
    void aMissingFileIsANetworkErrorNamingOnlyTheFile() {
        Fx fx = new Fx(dir);
        FetchReport report = fetch(fx.adapter("jsonl_inventory", Map.of("path", "sub/none.jsonl")));
        assertError(FetchOutcome.ErrorKind.NETWORK, report);
        assertEquals("file none.jsonl does not exist", ((FetchOutcome.Error) report.outcome()).detail());
    }

    @Test
    void aFileOverTheCapIsASizeLimitErrorWithoutReadingIt() {
        Fx fx = new Fx(dir);
        String name = fx.resource("inventory.jsonl");
        FetchReport report = fetch(fx.adapter("jsonl_inventory", Map.of("path", name, "maxBytes", "100")));
        assertError(FetchOutcome.ErrorKind.SIZE_LIMIT, report);
        assertEquals(0, report.bytesRead());
    }

    @Test
    void theDurationComesFromTheInjectedTicker() {
        Fx fx = new Fx(dir);
        ProviderAdapter adapter = fx.adapter("jsonl_inventory", Map.of("path", fx.resource("inventory.jsonl")));
        assertEquals(Duration.ZERO, fetch(adapter).duration(), "a manual clock that does not move measures zero");
        assertInstanceOf(FetchOutcome.Success.class, fetch(adapter).outcome());
    }
}
