package dev.proxypool.sdk.provider;

import static dev.proxypool.sdk.provider.Fx.assertError;
import static dev.proxypool.sdk.provider.Fx.fetch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.sequential.FetchOutcome;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextListAdapterTest {

    @TempDir
    Path dir;

    @Test
    void readsHostPortAndSchemeLinesWithComments() {
        Fx fx = new Fx(dir);
        FetchReport report = fetch(fx.adapter(
                "text_list", Map.of("path", fx.resource("list.txt"), "protocol", "http", "labels.type", "datacenter")));

        assertEquals(
                List.of("203.0.113.30", "203.0.113.31", "203.0.113.32", "203.0.113.33", "2001:db8::33"),
                Fx.hosts(report));
        assertEquals(
                List.of(Protocol.HTTP, Protocol.HTTP, Protocol.SOCKS5, Protocol.HTTP, Protocol.HTTP),
                report.candidates().stream().map(Proxy::protocol).toList());
        assertEquals(Labels.of("type", "datacenter"), report.candidates().get(0).labels());
        assertEquals(Map.of("malformed_record", 2, "invalid_protocol", 1, "port_out_of_range", 1), report.drops());
        assertEquals(
                List.of(
                        new DropSample(7, "malformed_record"),
                        new DropSample(8, "malformed_record"),
                        new DropSample(9, "invalid_protocol"),
                        new DropSample(10, "port_out_of_range")),
                report.dropSamples());
    }

    @Test
    void inlineCredentialsGoToTheStoreUnderADerivedRefNeverIntoTheProxy() throws Exception {
        Fx fx = new Fx(dir);
        String name = fx.file(
                "l.txt",
                "http://user:s3cr%23t@203.0.113.33:8000\n"
                        + "socks5://other:pw@203.0.113.34:1080\n" + "http://user:s3cr%23t@203.0.113.35:8000\n"
                        + "http://:nouser@203.0.113.36:8000\n" + "http://user:bad%zz@203.0.113.37:8000\n");
        FetchReport report = fetch(fx.adapter("text_list", Map.of("path", name, "credentialRef", "list-acct")));
        assertEquals(List.of("203.0.113.33", "203.0.113.34", "203.0.113.35"), Fx.hosts(report));
        assertEquals(Map.of("malformed_record", 2), report.drops());
        Proxy p = report.candidates().get(0);
        assertTrue(
                p.credentialRef().name().startsWith("inline-"),
                p.credentialRef().name());
        // one ref per (provider, user, address): the same user on another proxy has its own
        assertNotEquals(p.credentialRef(), report.candidates().get(2).credentialRef());
        assertEquals("user", fx.inline.resolve(p.credentialRef()).username());
        assertEquals("s3cr#t", fx.inline.resolve(p.credentialRef()).password().reveal());
        assertEquals(
                "other",
                fx.inline.resolve(report.candidates().get(1).credentialRef()).username());
        assertEquals(
                "pw",
                fx.inline
                        .resolve(report.candidates().get(1).credentialRef())
                        .password()
                        .reveal());
        for (Proxy c : report.candidates()) {
            assertFalse(c.toString().contains("s3cr"), c.toString());
            assertFalse(c.id().contains("s3cr") || c.id().contains("user"), c.id());
        }
        assertFalse(report.toString().contains("s3cr"));
        // a rotated password replaces the old one under the same ref
        fx.file("l.txt", "http://user:rotated@203.0.113.33:8000\n");
        FetchReport next = fetch(fx.adapter("text_list", Map.of("path", name)));
        assertEquals(p.credentialRef(), next.candidates().get(0).credentialRef());
        assertEquals("rotated", fx.inline.resolve(p.credentialRef()).password().reveal());
    }

    @Test
    void aLineWithoutCredentialsKeepsTheConfiguredRef() {
        Fx fx = new Fx(dir);
        String name = fx.file("l.txt", "http://203.0.113.33:8000\n");
        FetchReport report = fetch(fx.adapter("text_list", Map.of("path", name, "credentialRef", "list-acct")));
        assertEquals(CredentialRef.of("list-acct"), report.candidates().get(0).credentialRef());
    }

    @Test
    void withoutADefaultProtocolBareLinesAreDropped() {
        Fx fx = new Fx(dir);
        String name = fx.file("l.txt", "203.0.113.1:8080\nsocks4://203.0.113.2:1080\n");
        FetchReport report = fetch(fx.adapter("text_list", Map.of("path", name)));
        assertEquals(List.of("203.0.113.2"), Fx.hosts(report));
        assertEquals(Map.of("missing_protocol", 1), report.drops());
    }

    @Test
    void anHtmlPageInsteadOfAListIsAParseError() throws IOException {
        try (FeedServer server = new FeedServer()) {
            server.respond("/list", 200, "text/html", "<html>\n<body>Please log in</body>\n</html>\n");
            Fx fx = new Fx(dir);
            assertError(
                    FetchOutcome.ErrorKind.PARSE,
                    fetch(fx.adapter("text_list", Map.of("url", server.url("/list"), "protocol", "http"))));
        }
    }

    @Test
    void readsFromAUrl() throws IOException {
        try (FeedServer server = new FeedServer()) {
            server.respond("/list", 200, "text/plain", "203.0.113.1:8080\r\n203.0.113.2:8080\r\n");
            Fx fx = new Fx(dir);
            FetchReport report = fetch(fx.adapter("text_list", Map.of("url", server.url("/list"), "protocol", "http")));
            assertEquals(List.of("203.0.113.1", "203.0.113.2"), Fx.hosts(report));
        }
    }
}
