package dev.proxypool.server.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.server.fuzz.GatewayWire.Closed;
import dev.proxypool.server.fuzz.GatewayWire.Parsed;
import dev.proxypool.server.fuzz.GatewayWire.Refused;
import dev.proxypool.server.fuzz.GatewayWire.Result;
import dev.proxypool.server.gateway.Gateway;
import dev.proxypool.server.gateway.GatewayConfig;
import dev.proxypool.server.gateway.GatewayErrors;
import dev.proxypool.server.gateway.GatewayListener;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.fuzz.FuzzRun;
import dev.proxypool.testkit.fuzz.FuzzRun.Outcome;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #9 scenario 6, gateway: the request-head parser gets 100,000 generated inputs in process
 * and 2,000 over real connections to a running gateway. Every input parses into a head whose
 * fields come from the input, or is refused with 400/431 and a documented {@code X-ProxyPool-Error}
 * reason, or (the client closed mid-head) ends in a clean close; nothing else escapes, no input
 * takes more than a second of CPU, and after the barrage no connection or attempt is left open and a
 * normal request still works.
 */
@Tag("slow")
class RequestHeadFuzzTest {

    static final Set<String> REQUEST_REASONS = Set.of(
            GatewayErrors.BAD_REQUEST,
            GatewayErrors.ORIGIN_FORM,
            GatewayErrors.UNSUPPORTED_METHOD,
            GatewayErrors.UNSUPPORTED_SCHEME,
            GatewayErrors.BAD_CONNECT_TARGET,
            GatewayErrors.REQUEST_LINE_TOO_LONG,
            GatewayErrors.HEADERS_TOO_LARGE,
            GatewayErrors.BAD_FRAMING);
    static final Set<String> METHODS = Set.of(
            "GET",
            "HEAD",
            "POST",
            "PUT",
            "DELETE",
            "OPTIONS",
            "PATCH",
            "TRACE",
            "CONNECT",
            "PROPFIND",
            "PROPPATCH",
            "MKCOL",
            "COPY",
            "MOVE",
            "LOCK",
            "UNLOCK",
            "REPORT",
            "SEARCH");

    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyHeadParsesFromItsOwnBytesOrIsRefusedWithADocumentedStatus() throws Throwable {
        GatewayConfig cfg = GatewayConfig.DEFAULTS;
        FuzzRun run = FuzzRun.inProcess("gateway.requestHead", 100_000);
        run.forEach((i, r) -> {
            byte[] input = RequestHeads.next(r);
            run.check(i, input, () -> GatewayWire.parse(input, cfg), result -> verdict(result, input));
        });
        run.finish();
        run.require(
                run.accepted() > run.inputs() / 50,
                "too few inputs parsed (" + run.accepted()
                        + "): the generator no longer reaches the code after the request line");
        run.require(run.rejected() > run.inputs() / 50, "too few inputs refused (" + run.rejected() + ")");
    }

    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aRunningGatewayAnswersEveryBadHeadWithA4xxOrACleanCloseAndKeepsServing() throws Throwable {
        GatewayConfig cfg = GatewayConfig.DEFAULTS;
        try (FakeOrigin origin = FakeOrigin.start()) {
            LoopbackEngine engine = new LoopbackEngine(origin.port());
            Gateway gateway = Gateway.builder(engine).config(cfg).build();
            GatewayListener listener = GatewayListener.start(gateway, InetAddress.getLoopbackAddress(), 0);
            try {
                FuzzRun run = FuzzRun.live("gateway.live", 2_000);
                run.forEach((i, r) -> {
                    byte[] input = RequestHeads.next(r);
                    Result expected = GatewayWire.parse(input, cfg);
                    run.check(
                            i,
                            input,
                            () -> WireClient.exchange(listener.port(), input, 10_000),
                            answer -> live(expected, answer));
                });
                run.finish();
                awaitIdle(gateway, engine);
                WireClient.Answer after = WireClient.exchange(
                        listener.port(),
                        ("GET " + origin.url("/") + " HTTP/1.1\r\nHost: " + origin.authority()
                                        + "\r\nConnection: close\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1),
                        10_000);
                assertEquals(200, after.status(), "a normal request after the barrage: " + after.text());
                awaitIdle(gateway, engine);
            } finally {
                listener.stop(Duration.ofSeconds(2));
            }
        }
    }

    /** In process: the parse result must be one of the three documented shapes, consistent with the input. */
    static Outcome verdict(Result result, byte[] input) {
        String text = new String(input, StandardCharsets.ISO_8859_1);
        return switch (result) {
            case Parsed p -> {
                checkParsed(p, text);
                yield Outcome.parsed(p.method());
            }
            case Refused f -> {
                assertTrue(f.status() == 400 || f.status() == 431, "refusal status " + f.status());
                assertTrue(REQUEST_REASONS.contains(f.reason()), "undocumented reason '" + f.reason() + "'");
                assertTrue(f.message() != null && !f.message().isBlank(), "refusal without a message");
                yield Outcome.refused(f.status() + " " + f.reason());
            }
            case Closed c -> {
                if (c.message() == null) {
                    for (byte b : input) {
                        assertTrue(b == '\r' || b == '\n', "a clean end before a request, but the input had bytes");
                    }
                } else {
                    assertTrue(!c.message().isBlank(), "client-side close without a message");
                }
                yield Outcome.refused("closed");
            }
        };
    }

    /** "A parsed request's fields come from the input." */
    private static void checkParsed(Parsed p, String text) {
        assertTrue(METHODS.contains(p.method()), "method " + p.method());
        String lower = text.toLowerCase(Locale.ROOT);
        int start = 0;
        while (start < text.length() && (text.charAt(start) == '\r' || text.charAt(start) == '\n')) {
            start++;
        }
        assertTrue(text.startsWith(p.method() + " ", start), "the method is the input's first token");
        boolean connect = p.method().equals("CONNECT");
        assertTrue(!p.host().isEmpty() && lower.contains(p.host()), "host '" + p.host() + "' not in the input");
        assertEquals(p.host().toLowerCase(Locale.ROOT), p.host(), "host is lower-cased");
        assertTrue(p.port() >= 1 && p.port() <= 65535, "port " + p.port());
        if (connect) {
            assertEquals("", p.path(), "CONNECT has no path");
        } else {
            assertTrue(p.path().startsWith("/") && text.contains(p.path().substring(1)), "path from the input");
            for (int i = 0; i < p.path().length(); i++) {
                char c = p.path().charAt(i);
                assertTrue(c > ' ' && c < 0x7f, "path character " + (int) c);
            }
        }
        assertTrue(p.framing() >= 0 || p.framing() == -2, "framing " + p.framing());
        boolean host = false;
        for (String[] h : p.headers()) {
            assertTrue(!h[0].isEmpty() && text.contains(h[0] + ":"), "header name from the input: " + h[0]);
            assertTrue(text.contains(h[1]), "header value from the input");
            for (int i = 0; i < h[1].length(); i++) {
                char c = h[1].charAt(i);
                assertTrue(c >= 0x20 && c != 0x7f || c == '\t', "header value character " + (int) c);
            }
            host |= h[0].equalsIgnoreCase("Host");
            if (h[0].equalsIgnoreCase("Content-Length") && p.framing() >= 0) {
                assertEquals(Long.parseLong(h[1].split(",")[0].strip()), p.framing(), "framing is the Content-Length");
            }
        }
        assertTrue(host || !p.http11() || connect, "an HTTP/1.1 request without Host was accepted");
    }

    /** Live: the wire answer must match what the parser decided about the same bytes. */
    static Outcome live(Result result, WireClient.Answer answer) {
        String text = answer.text();
        for (String line : text.split("\r\n")) {
            if (line.startsWith("HTTP/1.")) {
                assertTrue(
                        !line.matches("HTTP/1\\.[01] 5\\d\\d.*") || text.contains("X-ProxyPool-Error: "),
                        "a 5xx without a gateway reason: " + line);
                assertTrue(!line.startsWith("HTTP/1.1 500") && !line.startsWith("HTTP/1.0 500"), "500: " + line);
            }
        }
        return switch (result) {
            case Refused f -> {
                assertEquals(f.status(), answer.status(), "status on the wire; answer: " + head(text));
                assertTrue(
                        text.contains("\r\nX-ProxyPool-Error: " + f.reason() + "\r\n"),
                        "reason on the wire: " + head(text));
                yield Outcome.refused(f.status() + " " + f.reason());
            }
            case Closed c -> {
                assertEquals(0, answer.bytes().length, "a client that closed mid-head gets no answer: " + head(text));
                yield Outcome.refused("closed");
            }
            case Parsed p -> {
                assertTrue(
                        answer.bytes().length == 0 || answer.status() >= 100,
                        "a parsed request gets a response or a close: " + head(text));
                yield Outcome.parsed(answer.bytes().length == 0 ? "closed" : Integer.toString(answer.status()));
            }
        };
    }

    private static String head(String text) {
        int end = text.indexOf("\r\n\r\n");
        return end < 0 ? text.substring(0, Math.min(200, text.length())) : text.substring(0, end);
    }

    static void awaitIdle(Gateway gateway, LoopbackEngine engine) throws InterruptedException {
        Await.atMost(Duration.ofSeconds(10))
                .until(
                        "no connection handler running and no attempt in flight after the barrage",
                        () -> "open connections " + gateway.openConnections() + ", attempts in flight "
                                + engine.inFlight(),
                        s -> s.equals("open connections 0, attempts in flight 0"));
    }
}
