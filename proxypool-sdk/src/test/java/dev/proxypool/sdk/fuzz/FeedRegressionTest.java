package dev.proxypool.sdk.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.provider.DropReason;
import dev.proxypool.sdk.provider.FetchContext;
import dev.proxypool.sdk.provider.FetchReport;
import dev.proxypool.sdk.provider.ProviderConfig;
import dev.proxypool.sdk.provider.ProviderEnvironment;
import dev.proxypool.sdk.provider.ProviderRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The feed bugs the fuzz test found, each pinned by the smallest input that showed it. */
class FeedRegressionTest {

    @TempDir
    Path dir;

    private FetchReport fetch(Feeds format, String answer) throws Throwable {
        ManualClock clock = new ManualClock();
        ProviderEnvironment env = new ProviderEnvironment(Map.of(), dir, clock, clock);
        InMemoryFeed feed = new InMemoryFeed(
                ProviderRegistry.standard(FeedParserFuzzTest.ALL)
                        .create(
                                new ProviderConfig(
                                        "fuzz",
                                        format.type,
                                        format.settings(format == Feeds.JSON ? "http://127.0.0.1:9/f" : "feed.txt"),
                                        format.fields),
                                env),
                env,
                Feeds.MAX_BYTES);
        return feed.fetch(answer.getBytes(StandardCharsets.UTF_8), FetchContext.of("up", Map.of()));
    }

    @Test
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aHugeJsonNumberInARecordDropsThatRecordInsteadOfWritingABillionDigits() throws Throwable {
        FetchReport r = fetch(
                Feeds.JSONL,
                "{\"host\": \"h.example\", \"port\": 8080, \"protocol\": 1e999999999}\n"
                        + "{\"host\": \"h.example\", \"port\": 1e-999999999, \"protocol\": \"http\"}\n"
                        + "{\"host\": \"ok.example\", \"port\": 8080, \"protocol\": \"http\"}\n");
        assertEquals(1, r.candidates().size(), r.toString());
        assertEquals(1, r.dropped(DropReason.INVALID_PROTOCOL), r.toString());
        assertEquals(1, r.dropped(DropReason.INVALID_PORT), r.toString());
    }

    @Test
    void aBadStringInOneJsonlLineDropsOnlyThatLine() throws Throwable {
        FetchReport r = fetch(
                Feeds.JSONL,
                "{\"host\": \"a.example\", \"port\": 1, \"protocol\": \"http\", \"labels\": {\"x\": \"a\tb\"}}\n"
                        + "{\"host\": \"b.example\", \"port\": 1, \"protocol\": \"http\"}\n");
        assertEquals(1, r.candidates().size(), r.toString());
        assertEquals(1, r.dropped(DropReason.MALFORMED_RECORD), r.toString());
    }

    @Test
    void aNonAsciiByteAfterANumberIsAMalformedLineNotAFailedFetch() throws Throwable {
        FetchReport r = fetch(
                Feeds.JSONL,
                "{\"host\": \"a.example\", \"port\": 1\u00e9, \"protocol\": \"http\"}\n"
                        + "{\"host\": \"b.example\", \"port\": 1, \"protocol\": \"http\"}\n");
        assertEquals(1, r.candidates().size(), r.toString());
        assertEquals(1, r.dropped(DropReason.MALFORMED_RECORD), r.toString());
    }

    @Test
    void aValidJsonFeedWithAnEscapedQuoteAcrossByte512Parses() throws Throwable {
        String answer = "[{\"note\": \"" + "x".repeat(499) + "\\\"q\\\"\", \"ip\": \"a.example\", \"port\": 1,"
                + " \"protocol\": \"http\"}]";
        assertEquals(510, answer.indexOf('\\'), "the escape's backslash is byte 510 of the 512-byte buffer");
        FetchReport r = fetch(Feeds.JSON, answer);
        assertEquals(1, r.candidates().size(), r.toString());
    }

    @Test
    void deepNestingIsAParseErrorNotAStackOverflow() throws Throwable {
        FetchReport r = fetch(Feeds.JSON, "[".repeat(20_000) + "]".repeat(20_000));
        assertEquals(FetchOutcome.ErrorKind.PARSE, ((FetchOutcome.Error) r.outcome()).kind(), r.toString());
    }

    @Test
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aHugeEpochExpiryDropsTheRecordInsteadOfFailingTheFetch() throws Throwable {
        FetchReport r = fetch(
                Feeds.CSV,
                "ip,port,protocol,expiresAt\na.example,1,http,1e999999999\n"
                        + "b.example,1,http,1e99999999\nc.example,1,http,\n");
        assertEquals(1, r.candidates().size(), r.toString());
        assertEquals(2, r.dropped(DropReason.INVALID_EXPIRES_AT), r.toString());
    }
}
