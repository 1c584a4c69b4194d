package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.server.e2e.security.LogCapture;
import dev.proxypool.testkit.Await;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A defect below the connection handler (an engine that throws) ends that connection and is
 * logged as a warning naming the exception type and where it was thrown, never its message; the
 * gateway keeps serving other connections.
 */
class HandlerDefectTest {

    private static final String TARGET_IN_MESSAGE = "secret-target.example";

    @Test
    void aRuntimeExceptionIsLoggedWithoutItsMessageAndTheGatewayKeepsServing() throws Exception {
        String logger = "the connection's logger";
        GatewayEngine broken = new GatewayEngine() {
            @Override
            public RouteDecision route(RouteRequest request) {
                if (request.host().startsWith("boom")) {
                    throw new IllegalStateException("failed for " + TARGET_IN_MESSAGE);
                }
                return new RouteDecision.Rejected(503, GatewayErrors.NO_CANDIDATE, "none");
            }

            @Override
            public int inFlight() {
                return 0;
            }
        };
        try (LogCapture logs = LogCapture.install();
                GatewayFixture gw = new GatewayFixture(broken)) {
            try (RawClient c = gw.client()) {
                c.send("GET http://boom.example/ HTTP/1.1\r\nHost: boom.example\r\n\r\n");
                boolean answered;
                try {
                    c.read(false);
                    answered = true;
                } catch (IOException e) {
                    answered = false; // the connection was closed without an answer
                }
                assertFalse(answered, "no answer on the failed connection");
            }
            Await.atMost(Duration.ofSeconds(5))
                    .until(
                            "a WARNING from " + logger,
                            logs::lines,
                            lines -> lines.stream().anyMatch(HandlerDefectTest::connectionWarning));
            List<String> warnings = logs.lines().stream()
                    .filter(HandlerDefectTest::connectionWarning)
                    .map(LogCapture.Line::text)
                    .toList();
            assertEquals(1, warnings.size(), "one warning: " + warnings);
            assertTrue(warnings.getFirst().contains("java.lang.IllegalStateException"), warnings.getFirst());
            assertTrue(
                    warnings.getFirst().contains("HandlerDefectTest"), "where it was thrown: " + warnings.getFirst());
            for (LogCapture.Line l : logs.lines()) {
                assertFalse(
                        l.text().contains(TARGET_IN_MESSAGE),
                        "never the message (nor a stack trace with it): " + l.where());
            }
            try (RawClient c = gw.client()) {
                c.send("GET http://ok.example/ HTTP/1.1\r\nHost: ok.example\r\n\r\n");
                assertTrue(c.read(false).statusLine().contains("503"), "the gateway keeps serving");
            }
        }
    }

    /** A warning from the logger of the data plane's connection handler. */
    private static boolean connectionWarning(LogCapture.Line l) {
        return l.is("WARNING", HttpProxyHandler.class.getName());
    }
}
