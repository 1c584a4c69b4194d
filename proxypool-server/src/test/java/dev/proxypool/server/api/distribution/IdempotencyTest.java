package dev.proxypool.server.api.distribution;

import static dev.proxypool.server.api.distribution.DistributionFixture.START;
import static dev.proxypool.server.api.distribution.DistributionFixture.proxies;
import static dev.proxypool.server.api.distribution.Responses.extracted;
import static dev.proxypool.server.api.distribution.Responses.ids;
import static dev.proxypool.server.api.distribution.Responses.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.IdempotencyKey;
import dev.proxypool.core.extract.IdempotencyStart;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Idempotency-Key: replay byte-for-byte, 422 on another body, 409 while running, release after failures. */
class IdempotencyTest {

    private static DistributionFixture fixture(int proxies) {
        return DistributionFixture.with(
                        proxies(proxies, "lab", Protocol.HTTP, "vendor-a", START.plusSeconds(3600), "country", "US"))
                .credentials(StaticCredentialStore.empty().with("vendor-a", "u", "pw"))
                .start();
    }

    @Test
    void sameKeyAndBodyReplaysTheStoredResponseByteForByte() throws Exception {
        try (DistributionFixture f = fixture(10)) {
            HttpResponse<String> first = f.alice("{\"count\": 3}", "Idempotency-Key", "order-1");
            assertEquals(200, first.statusCode());
            assertFalse(first.headers().firstValue("Idempotent-Replayed").isPresent());
            f.clock.advance(java.time.Duration.ofMinutes(5));

            HttpResponse<byte[]> again = f.http.send(
                    java.net.http.HttpRequest.newBuilder(f.uri)
                            .header("Authorization", "Bearer " + DistributionFixture.ALICE_TOKEN)
                            .header("Idempotency-Key", "order-1")
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"count\": 3}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, again.statusCode());
            assertEquals(
                    "true", again.headers().firstValue("Idempotent-Replayed").orElseThrow());
            assertTrue(
                    java.util.Arrays.equals(first.body().getBytes(StandardCharsets.UTF_8), again.body()),
                    "same bytes, same remainingTtlSeconds as the first time");
            assertEquals(7, f.available(), "nothing extracted again");
            assertEquals(1, f.store.extractCalls.get());
        }
    }

    @Test
    void differentlySpelledSameRequestReplays() throws Exception {
        try (DistributionFixture f = fixture(10)) {
            HttpResponse<String> first =
                    f.alice("{\"count\": 2, \"filter\": {\"country\": \"US\"}}", "Idempotency-Key", "k");
            HttpResponse<String> same = f.alice("""
                    {"minRemainingTtlSeconds": 0, "filter": {"labels": {"country": "US"}, "protocol": null},
                     "fulfillment": "partial", "count": 2}""", "Idempotency-Key", "k");
            assertEquals(200, same.statusCode());
            assertEquals(
                    "true", same.headers().firstValue("Idempotent-Replayed").orElseThrow());
            assertEquals(first.body(), same.body());
            assertEquals(8, f.available());
        }
    }

    @Test
    void sameKeyWithAnotherBodyIs422AndExtractsNothing() throws Exception {
        try (DistributionFixture f = fixture(10)) {
            assertEquals(200, f.alice("{\"count\": 2}", "Idempotency-Key", "k").statusCode());
            HttpResponse<String> other = f.alice("{\"count\": 3}", "Idempotency-Key", "k");
            assertEquals(422, other.statusCode());
            assertEquals("idempotency_key_reused", json(other).get("error").asText());
            assertEquals(8, f.available());
        }
    }

    @Test
    void keyStillInProgressIs409RequestInProgress() throws Exception {
        try (DistributionFixture f = fixture(10)) {
            String body = "{\"count\": 2}";
            String fingerprint =
                    DistributionService.fingerprint(ExtractionJson.parse(body.getBytes(StandardCharsets.UTF_8), 1000));
            IdempotencyKey key = new IdempotencyKey("alice", "running");
            assertInstanceOf(
                    IdempotencyStart.Started.class, f.store.beginIdempotent(key, fingerprint, f.clock.instant()));

            HttpResponse<String> r = f.alice(body, "Idempotency-Key", "running");
            assertEquals(409, r.statusCode());
            assertEquals("request_in_progress", json(r).get("error").asText());
            assertEquals(10, f.available());
            assertEquals(0, f.store.extractCalls.get());

            assertEquals(
                    200,
                    f.post(DistributionFixture.BOB_TOKEN, body, "Idempotency-Key", "running")
                            .statusCode(),
                    "keys are per client: bob's 'running' is another key");
        }
    }

    @Test
    void keysAreNamespacedPerClient() throws Exception {
        try (DistributionFixture f = fixture(10)) {
            HttpResponse<String> a = f.alice("{\"count\": 2}", "Idempotency-Key", "same");
            HttpResponse<String> b = f.post(DistributionFixture.BOB_TOKEN, "{\"count\": 2}", "Idempotency-Key", "same");
            assertEquals(200, b.statusCode());
            assertFalse(b.headers().firstValue("Idempotent-Replayed").isPresent());
            assertNotEquals(ids(a), ids(b));
            assertEquals(6, f.available());
        }
    }

    @Test
    void insufficientOutcomeIsStoredAndReplayed() throws Exception {
        try (DistributionFixture f = fixture(2)) {
            String body = "{\"count\": 3, \"fulfillment\": \"allOrNothing\"}";
            HttpResponse<String> first = f.alice(body, "Idempotency-Key", "k");
            assertEquals(409, first.statusCode());
            f.pool.addProxies(proxies(5, "more", Protocol.HTTP, "", START.plusSeconds(3600)));
            HttpResponse<String> replay = f.alice(body, "Idempotency-Key", "k");
            assertEquals(409, replay.statusCode(), "the outcome of that request, not a new extraction");
            assertEquals(first.body(), replay.body());
            assertEquals(
                    "true", replay.headers().firstValue("Idempotent-Replayed").orElseThrow());
            assertEquals(7, f.available());
        }
    }

    @Test
    void storeDownIs503ExtractsNothingAndReleasesTheKey() throws Exception {
        try (DistributionFixture f = fixture(10)) {
            f.store.down(true);
            HttpResponse<String> plain = f.alice("{\"count\": 2}");
            assertEquals(503, plain.statusCode());
            assertEquals("{\"error\":\"store_unavailable\"}", plain.body());
            HttpResponse<String> keyed = f.alice("{\"count\": 2}", "Idempotency-Key", "k");
            assertEquals(503, keyed.statusCode());
            f.store.down(false);
            assertEquals(10, f.available(), "nothing extracted");

            HttpResponse<String> retry = f.alice("{\"count\": 2}", "Idempotency-Key", "k");
            assertEquals(200, retry.statusCode(), "not 409 in progress: nothing was recorded");
            assertFalse(retry.headers().firstValue("Idempotent-Replayed").isPresent());
            assertEquals(2, extracted(retry));
        }
    }

    @Test
    void storeFailingDuringExtractionReleasesTheKeyForARetry() throws Exception {
        try (DistributionFixture f = fixture(10)) {
            f.store.extractDown(true);
            HttpResponse<String> failed = f.alice("{\"count\": 2}", "Idempotency-Key", "mid");
            assertEquals(503, failed.statusCode());
            assertEquals("{\"error\":\"store_unavailable\"}", failed.body());
            f.store.extractDown(false);
            assertEquals(10, f.available());

            HttpResponse<String> retry = f.alice("{\"count\": 2}", "Idempotency-Key", "mid");
            assertEquals(200, retry.statusCode(), "the key was abandoned, not left in progress: " + retry.body());
            assertFalse(retry.headers().firstValue("Idempotent-Replayed").isPresent());
            assertEquals(8, f.available());
        }
    }

    @Test
    void quotaRefusalReleasesTheKey() throws Exception {
        try (DistributionFixture f = DistributionFixture.with(
                        proxies(10, "lab", Protocol.HTTP, "", START.plusSeconds(7200)))
                .quotas(Map.of("alice", 2))
                .start()) {
            assertEquals(200, f.alice("{\"count\": 2}").statusCode());
            assertEquals(429, f.alice("{\"count\": 1}", "Idempotency-Key", "q").statusCode());
            f.clock.advance(dev.proxypool.core.limits.QuotaLedger.WINDOW);
            HttpResponse<String> retry = f.alice("{\"count\": 1}", "Idempotency-Key", "q");
            assertEquals(200, retry.statusCode());
            assertFalse(retry.headers().firstValue("Idempotent-Replayed").isPresent());
        }
    }

    @Test
    void keyOf255CharactersIsAccepted() throws Exception {
        try (DistributionFixture f = fixture(3)) {
            String key = "k".repeat(255);
            assertEquals(200, f.alice("{\"count\": 1}", "Idempotency-Key", key).statusCode());
            assertEquals(
                    "true",
                    f.alice("{\"count\": 1}", "Idempotency-Key", key)
                            .headers()
                            .firstValue("Idempotent-Replayed")
                            .orElseThrow());
        }
    }
}
