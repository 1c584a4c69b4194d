package dev.proxypool.server.api.distribution;

import static dev.proxypool.server.api.distribution.DistributionFixture.START;
import static dev.proxypool.server.api.distribution.DistributionFixture.proxies;
import static dev.proxypool.server.api.distribution.Responses.extracted;
import static dev.proxypool.server.api.distribution.Responses.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.core.model.Protocol;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Quotas over HTTP: proxies (not calls) per sliding hour, 429 with limit/used/Retry-After. */
class QuotaHttpTest {

    @Test
    void quotaCountsProxiesAndAnswers429WithRetryAfter() throws Exception {
        try (DistributionFixture f = DistributionFixture.with(
                        proxies(50, "lab", Protocol.HTTP, "", START.plusSeconds(86_400)))
                .quotas(Map.of("alice", 5))
                .start()) {
            assertEquals(3, extracted(f.alice("{\"count\": 3}")));
            f.clock.advance(Duration.ofMinutes(10));

            HttpResponse<String> lowered = f.alice("{\"count\": 3}");
            assertEquals(200, lowered.statusCode());
            assertEquals(3, json(lowered).get("requested").asInt());
            assertEquals(2, extracted(lowered), "a partial request gets what is left of the quota");

            HttpResponse<String> refused = f.alice("{\"count\": 1}");
            assertEquals(429, refused.statusCode());
            JsonNode body = json(refused);
            assertEquals("quota_exceeded", body.get("error").asText());
            assertEquals(5, body.get("limit").asInt());
            assertEquals(5, body.get("used").asInt());
            assertEquals(3000, body.get("retryAfterSeconds").asLong(), "the first 3 leave at t0 + 1 h");
            assertEquals("3000", refused.headers().firstValue("Retry-After").orElseThrow());

            assertEquals(
                    200,
                    f.post(DistributionFixture.BOB_TOKEN, "{\"count\": 10}").statusCode(),
                    "bob is unlimited");
            assertEquals(35, f.available());

            f.clock.advance(Duration.ofMinutes(50));
            HttpResponse<String> all = f.alice("{\"count\": 4, \"fulfillment\": \"allOrNothing\"}");
            assertEquals(429, all.statusCode(), "3 are free again, allOrNothing needs 4");
            assertEquals(600, json(all).get("retryAfterSeconds").asLong());
            assertEquals(3, extracted(f.alice("{\"count\": 3, \"fulfillment\": \"allOrNothing\"}")));

            HttpResponse<String> never = f.alice("{\"count\": 6, \"fulfillment\": \"allOrNothing\"}");
            assertEquals(429, never.statusCode());
            assertTrue(json(never).get("message").asText().contains("exceeds the hourly quota of 5"), never.body());
        }
    }

    @Test
    void onlyProxiesHandedOutCount() throws Exception {
        try (DistributionFixture f = DistributionFixture.with(
                        proxies(2, "lab", Protocol.HTTP, "", START.plusSeconds(86_400)))
                .quotas(Map.of("alice", 3))
                .start()) {
            assertEquals(
                    409,
                    f.alice("{\"count\": 3, \"fulfillment\": \"allOrNothing\"}").statusCode());
            assertEquals(0, f.service.quotaLedger().used("alice"), "an insufficient answer costs nothing");
            f.store.down(true);
            assertEquals(503, f.alice("{\"count\": 3}").statusCode());
            f.store.down(false);
            assertEquals(0, f.service.quotaLedger().used("alice"), "neither does an unavailable store");

            assertEquals(2, extracted(f.alice("{\"count\": 3}", "Idempotency-Key", "k")));
            assertEquals(2, f.service.quotaLedger().used("alice"), "the 2 handed out count, not the 3 asked");
            HttpResponse<String> replay = f.alice("{\"count\": 3}", "Idempotency-Key", "k");
            assertEquals(
                    "true", replay.headers().firstValue("Idempotent-Replayed").orElseThrow());
            assertEquals(2, f.service.quotaLedger().used("alice"), "a replay counts nothing");
        }
    }
}
