package dev.proxypool.server.api.distribution;

import static dev.proxypool.server.api.distribution.DistributionFixture.START;
import static dev.proxypool.server.api.distribution.DistributionFixture.proxies;
import static dev.proxypool.server.api.distribution.Responses.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Protocol;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every bad input is a 400 (or 413) whose message names the field, and extracts nothing. */
class ExtractionValidationTest {

    private static DistributionFixture f;

    @BeforeAll
    static void start() {
        f = DistributionFixture.with(proxies(20, "lab", Protocol.HTTP, "", START.plusSeconds(3600)))
                .maxCount(50)
                .start();
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    static Stream<Arguments> badBodies() {
        return Stream.of(
                Arguments.of("", "request body is empty"),
                Arguments.of("   \n", "request body is empty"),
                Arguments.of("count=5", "request body is not valid JSON"),
                Arguments.of("{\"count\": 5", "request body is not valid JSON"),
                Arguments.of("{\"count\": 1} {\"count\": 2}", "data after the top-level value"),
                Arguments.of("[{\"count\": 1}]", "request body must be a JSON object, got array"),
                Arguments.of("5", "request body must be a JSON object, got number"),
                Arguments.of(
                        "{\"count\":" + "[".repeat(30_000) + "]".repeat(30_000) + "}", "nests deeper than 16 levels"),
                Arguments.of("{}", "count is required (1..50)"),
                Arguments.of("{\"count\": null}", "count is required"),
                Arguments.of("{\"count\": \"5\"}", "count must be an integer, got string"),
                Arguments.of("{\"count\": true}", "count must be an integer, got boolean"),
                Arguments.of("{\"count\": 2.5}", "count must be an integer, got 2.5"),
                Arguments.of("{\"count\": 0}", "count must be between 1 and 50, got 0"),
                Arguments.of("{\"count\": -3}", "count must be between 1 and 50, got -3"),
                Arguments.of("{\"count\": 51}", "count must be between 1 and 50, got 51"),
                Arguments.of("{\"count\": 1e30}", "count must be between 1 and 50, got 1E+30"),
                Arguments.of("{\"count\": 99999999999999999999999}", "count must be between 1 and 50"),
                Arguments.of("{\"count\": 1, \"colour\": \"red\"}", "unknown field 'colour'"),
                Arguments.of("{\"count\": 1, \"Count\": 1}", "unknown field 'Count'"),
                Arguments.of(
                        "{\"count\": 1, \"fulfillment\": \"some\"}",
                        "fulfillment must be partial or allOrNothing, got 'some'"),
                Arguments.of("{\"count\": 1, \"fulfillment\": 1}", "fulfillment must be a string, got number"),
                Arguments.of(
                        "{\"count\": 1, \"minRemainingTtlSeconds\": -1}",
                        "minRemainingTtlSeconds must be between 0 and"),
                Arguments.of(
                        "{\"count\": 1, \"minRemainingTtlSeconds\": \"60\"}",
                        "minRemainingTtlSeconds must be an integer, got string"),
                Arguments.of(
                        "{\"count\": 1, \"minRemainingTtlSeconds\": 1.5}",
                        "minRemainingTtlSeconds must be an integer, got 1.5"),
                Arguments.of("{\"count\": 1, \"filter\": []}", "filter must be an object, got array"),
                Arguments.of("{\"count\": 1, \"filter\": {\"colour\": \"red\"}}", "unknown field 'filter.colour'"),
                Arguments.of(
                        "{\"count\": 1, \"filter\": {\"protocol\": \"ftp\"}}",
                        "filter.protocol must be http, https, socks4 or socks5, got 'ftp'"),
                Arguments.of(
                        "{\"count\": 1, \"filter\": {\"protocol\": 1}}",
                        "filter.protocol must be a string, got number"),
                Arguments.of(
                        "{\"count\": 1, \"filter\": {\"country\": 5}}", "filter.country must be a string, got number"),
                Arguments.of(
                        "{\"count\": 1, \"filter\": {\"region\": {}}}", "filter.region must be a string, got object"),
                Arguments.of("{\"count\": 1, \"filter\": {\"city\": \" \"}}", "filter.city must not be blank"),
                Arguments.of(
                        "{\"count\": 1, \"filter\": {\"carrier\": []}}", "filter.carrier must be a string, got array"),
                Arguments.of("{\"count\": 1, \"filter\": {\"upstream\": \"\"}}", "filter.upstream must not be blank"),
                Arguments.of(
                        "{\"count\": 1, \"filter\": {\"labels\": \"type=x\"}}",
                        "filter.labels must be an object of strings, got string"),
                Arguments.of(
                        "{\"count\": 1, \"filter\": {\"labels\": {\"type\": 1}}}",
                        "filter.labels.type must be a string, got number"),
                Arguments.of(
                        "{\"count\": 1, \"filter\": {\"labels\": {\"type\": \"\"}}}", "filter.type must not be blank"),
                Arguments.of(
                        "{\"count\": 1, \"filter\": {\"country\": \"US\", \"labels\": {\"country\": \"DE\"}}}",
                        "filter.country is given twice"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("badBodies")
    void badBodyIs400NamingTheField(String body, String message) throws Exception {
        HttpResponse<String> r = f.alice(body);
        assertEquals(400, r.statusCode(), r.body());
        assertEquals("invalid_request", json(r).get("error").asText());
        String m = json(r).get("message").asText();
        assertTrue(m.contains(message), "expected '" + message + "' in: " + m);
        assertEquals(f.initial, f.available(), "nothing extracted");
        assertEquals(0, f.store.extractCalls.get(), "the store was never asked");
    }

    @Test
    void idempotencyKeyLongerThan255CharactersIs400() throws Exception {
        HttpResponse<String> r = f.alice("{\"count\": 1}", "Idempotency-Key", "k".repeat(256));
        assertEquals(400, r.statusCode());
        assertTrue(
                json(r).get("message").asText().contains("Idempotency-Key must be at most 255 characters, got 256"),
                r.body());
        assertEquals(f.initial, f.available());
    }

    @Test
    void declaredBodyAbove64KibIs413WithoutReadingIt() throws Exception {
        String big = "{\"count\": 1, \"filter\": {\"labels\": {\"pad\": \"" + "x".repeat(70_000) + "\"}}}";
        HttpResponse<String> r = f.alice(big);
        assertEquals(413, r.statusCode());
        assertEquals("invalid_request", json(r).get("error").asText());
        assertTrue(json(r).get("message").asText().contains("exceeds 65536 bytes"), r.body());
        assertEquals(f.initial, f.available());
    }

    @Test
    void chunkedBodyAbove64KibIs413() throws Exception {
        byte[] big =
                ("{\"count\": 1, \"filter\": {\"labels\": {\"pad\": \"" + "x".repeat(2_000_000) + "\"}}}").getBytes();
        HttpRequest req = HttpRequest.newBuilder(f.uri)
                .timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + DistributionFixture.ALICE_TOKEN)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big)))
                .build();
        HttpResponse<String> r;
        try {
            r = f.http.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException closedWhileSending) {
            // the server answered and closed before the client finished sending: also a refusal
            assertEquals(f.initial, f.available());
            return;
        }
        assertEquals(413, r.statusCode(), r.body());
        assertEquals(f.initial, f.available());
    }

    @Test
    void bodyOfExactly64KibIsRead() throws Exception {
        String head = "{\"count\": 1, \"filter\": {\"labels\": {\"pad\": \"";
        String tail = "\"}}}";
        String body = head + "x".repeat(DistributionService.MAX_BODY_BYTES - head.length() - tail.length()) + tail;
        assertEquals(DistributionService.MAX_BODY_BYTES, body.length());
        HttpResponse<String> r = f.alice(body);
        assertEquals(200, r.statusCode(), "parsed (no proxy has that label)");
        assertEquals(0, Responses.extracted(r));
    }
}
