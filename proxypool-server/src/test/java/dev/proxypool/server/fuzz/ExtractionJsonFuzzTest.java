package dev.proxypool.server.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.api.distribution.DistributionService;
import dev.proxypool.server.fuzz.ExtractionBody.Call;
import dev.proxypool.server.fuzz.ExtractionBody.Invalid;
import dev.proxypool.server.fuzz.ExtractionBody.Result;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.fuzz.FuzzRun;
import dev.proxypool.testkit.fuzz.FuzzRun.Outcome;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #9 scenario 6, Distribution API: the {@code POST /v1/extractions} body reader gets 100,000
 * generated bodies in process (every one is a valid call or a 400 whose message is short and says
 * what is wrong; nothing else escapes, which the service would answer with 500), 10,000 valid
 * bodies spelled in random ways parse to the values they were built from, every valid call's
 * canonical form (the idempotency fingerprint) reads back to itself, and 2,000 bodies go to a
 * running server over HTTP, whose every answer matches the in-process verdict.
 */
@Tag("slow")
class ExtractionJsonFuzzTest {

    static final int MAX_COUNT = 1000;
    static final int MAX_MESSAGE = 400;
    static final long MAX_MIN_TTL = 10L * 366 * 24 * 3600;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyBodyIsAValidCallOrA400ThatNamesTheProblem() throws Throwable {
        FuzzRun run = FuzzRun.inProcess("extraction.json", 100_000);
        run.forEach((i, r) -> {
            byte[] body = ExtractionBodies.next(r);
            run.check(i, body, () -> ExtractionBody.parse(body, MAX_COUNT), ExtractionJsonFuzzTest::verdict);
        });
        run.finish();
        run.require(run.accepted() > run.inputs() / 100, "too few valid calls (" + run.accepted() + ")");
    }

    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void validBodiesParseToTheirOwnValuesAndAStableFingerprint() throws Throwable {
        FuzzRun run = FuzzRun.inProcess("extraction.json.valid", 10_000);
        run.forEach((i, r) -> {
            ExtractionBodies.Valid v = ExtractionBodies.valid(r, MAX_COUNT);
            byte[] body = v.body().getBytes(StandardCharsets.UTF_8);
            run.check(i, body, () -> ExtractionBody.parse(body, MAX_COUNT), result -> {
                if (!(result instanceof Call c)) {
                    throw new AssertionError("a valid body was refused: " + result);
                }
                assertEquals(v.count(), c.count(), "count");
                assertEquals(v.fulfillment(), c.fulfillment().wireName(), "fulfillment");
                assertEquals(v.minTtl(), c.minRemainingTtlSeconds(), "minRemainingTtlSeconds");
                assertEquals(
                        v.protocol() == null ? null : Protocol.parse(v.protocol()),
                        c.filter().protocol().orElse(null),
                        "filter.protocol");
                assertEquals(v.upstream(), c.filter().upstream().orElse(null), "filter.upstream");
                assertEquals(v.labels(), c.filter().labels().required(), "filter labels");
                return Outcome.parsed();
            });
        });
        run.finish();
    }

    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aRunningServerAnswersEveryBodyAsTheReaderDecidedAndNever5xx() throws Throwable {
        int maxCount = 2;
        int proxies = 3_000;
        String token = "fuzz-client-token-0123456789";
        StringBuilder inventory = new StringBuilder();
        for (int i = 0; i < proxies; i++) {
            inventory
                    .append("{\"host\": \"127.0.0.1\", \"port\": ")
                    .append(20_000 + i)
                    .append(", \"protocol\": \"http\"}\n");
        }
        Files.writeString(dir.resolve("inventory.jsonl"), inventory);
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                clients: [{ name: alice, token: %s }]
                providers: [{ name: lab, type: jsonl_inventory, path: inventory.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                health: { active: { enabled: false } }
                distribution: { maxCount: %d, gatewayReserve: 0 }
                """.formatted(token, maxCount));
        try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                .configDir(dir)
                .start()) {
            awaitPool(server, proxies);
            HttpClient http = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            URI uri = URI.create("http://127.0.0.1:" + server.apiPort() + DistributionService.PATH);
            FuzzRun run = FuzzRun.live("extraction.live", 2_000);
            run.forEach((i, r) -> {
                byte[] body = r.nextInt(4) == 0
                        ? ExtractionBodies.valid(r, maxCount).body().getBytes(StandardCharsets.UTF_8)
                        : ExtractionBodies.next(r);
                Result expected = ExtractionBody.parse(body, maxCount);
                run.check(
                        i,
                        body,
                        () -> http.send(
                                HttpRequest.newBuilder(uri)
                                        .timeout(Duration.ofSeconds(10))
                                        .header("Authorization", "Bearer " + token)
                                        .header("Content-Type", "application/json")
                                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString()),
                        answer -> live(expected, body.length, answer));
            });
            run.finish();
            HttpResponse<String> after = http.send(
                    HttpRequest.newBuilder(uri)
                            .timeout(Duration.ofSeconds(10))
                            .header("Authorization", "Bearer " + token)
                            .POST(HttpRequest.BodyPublishers.ofString("{\"count\": 1}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, after.statusCode(), "a normal extraction after the barrage: " + after.body());
            assertEquals(1, object(after.body()).path("extracted").asInt(-1), "one proxy extracted: " + after.body());
        }
    }

    /** Found by this fuzz test: the parser decodes strings lazily, and bad UTF-8 in a key escaped as a 500. */
    @Test
    void badUtf8InAKeyOrAByteAfterANumberIsA400() throws Throwable {
        byte[] badKey = "{\"count\u00ff\": 1}".getBytes(StandardCharsets.ISO_8859_1);
        byte[] afterNumber = "{\"count\": 1\u00e9}".getBytes(StandardCharsets.UTF_8);
        for (byte[] body : new byte[][] {badKey, afterNumber}) {
            Result r = ExtractionBody.parse(body, MAX_COUNT);
            assertTrue(
                    r instanceof Invalid i && i.message().startsWith("request body is not valid JSON"), r.toString());
        }
    }

    /** In process: a call within the documented ranges whose canonical form reads back to itself, or a short 400 message. */
    static Outcome verdict(Result result) throws Throwable {
        return switch (result) {
            case Call c -> {
                assertTrue(c.count() >= 1 && c.count() <= MAX_COUNT, "count " + c.count());
                assertTrue(c.minRemainingTtlSeconds() >= 0 && c.minRemainingTtlSeconds() <= MAX_MIN_TTL, "minTtl");
                Result again = ExtractionBody.parse(c.canonical().getBytes(StandardCharsets.UTF_8), MAX_COUNT);
                assertTrue(
                        again instanceof Call a && a.canonical().equals(c.canonical()),
                        "the canonical form does not read back to itself: " + c.canonical() + " -> " + again);
                yield Outcome.parsed("call");
            }
            case Invalid f -> {
                assertTrue(f.message() != null && !f.message().isBlank(), "a 400 without a message");
                assertTrue(
                        f.message().length() <= MAX_MESSAGE,
                        "a 400 message of " + f.message().length() + " characters (input echoed?)");
                yield Outcome.refused(kind(f.message()));
            }
        };
    }

    /** Live: the status and message on the wire are the reader's; nothing is a 5xx. */
    static Outcome live(Result expected, int bodyBytes, HttpResponse<String> answer) {
        int status = answer.statusCode();
        assertTrue(status < 500, "status " + status + ": " + answer.body());
        if (bodyBytes > DistributionService.MAX_BODY_BYTES) {
            assertEquals(413, status, "an oversized body: " + answer.body());
            return Outcome.refused("413");
        }
        return switch (expected) {
            case Invalid f -> {
                assertEquals(400, status, "status: " + answer.body());
                JsonNode o = object(answer.body());
                assertEquals("invalid_request", o.path("error").asText(null), "error code");
                assertEquals(f.message(), o.path("message").asText(null), "the reader's message on the wire");
                yield Outcome.refused("400 " + kind(f.message()));
            }
            case Call c -> {
                assertTrue(status == 200 || status == 409, "a valid call answered " + status + ": " + answer.body());
                if (status == 200) {
                    int extracted = object(answer.body()).path("extracted").asInt(-1);
                    assertTrue(extracted >= 0 && extracted <= c.count(), "extracted " + extracted);
                }
                yield Outcome.parsed(Integer.toString(status));
            }
        };
    }

    /** The message up to the first detail (":", "'", ", got"), for the summary's counts. */
    private static String kind(String message) {
        int cut = message.length();
        for (String stop : new String[] {":", "'", ", got", " (", " got"}) {
            int at = message.indexOf(stop);
            if (at > 0 && at < cut) {
                cut = at;
            }
        }
        return message.substring(0, Math.min(cut, 48));
    }

    static JsonNode object(String json) {
        return JsonCodec.read(json, JsonCodec.Nesting.FEED);
    }

    private static void awaitPool(ProxyPoolServer server, int size) throws InterruptedException {
        Await.atMost(Duration.ofSeconds(30))
                .until(
                        "the inventory (" + size + " proxies) in the pool",
                        () -> EmbeddedProxyPool.engineOf(server.pool())
                                .snapshot()
                                .size(),
                        n -> n >= size);
        assertEquals(size, EmbeddedProxyPool.engineOf(server.pool()).snapshot().size(), "the inventory is in the pool");
    }
}
