package dev.proxypool.sdk.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.provider.FetchContext;
import dev.proxypool.sdk.provider.FetchReport;
import dev.proxypool.sdk.provider.ProviderAdapter;
import dev.proxypool.sdk.provider.ProviderConfig;
import dev.proxypool.sdk.provider.ProviderEnvironment;
import dev.proxypool.sdk.provider.ProviderRegistry;
import dev.proxypool.testkit.fuzz.FuzzRun;
import dev.proxypool.testkit.fuzz.FuzzRun.Outcome;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue #9 scenario 6, provider feeds: each of the four formats (JSONL inventory, JSON feed, CSV,
 * text list) gets 100,000 generated answers through its adapter's own fetch path (in memory), valid
 * answers round-trip to the proxies they were built from, and 2,000 answers go through the real
 * HTTP source. The adapter contract holds for every one: {@code fetch} never throws, a failure is a
 * PARSE or SIZE_LIMIT report with a detail (never "unreadable answer", which means a parser threw),
 * every candidate is a valid proxy taken from the answer, and no answer takes more than a second of CPU.
 */
@Tag("slow")
class FeedParserFuzzTest {

    static final Set<String> ALL = Set.of("jsonl_inventory", "http_json_feed", "text_list", "csv");
    static final FetchContext CTX = FetchContext.of("fuzz-up", Map.of());

    @TempDir
    Path dir;

    final ManualClock clock = new ManualClock();

    ProviderEnvironment env() {
        return new ProviderEnvironment(Map.of(), dir, clock, clock);
    }

    ProviderAdapter adapter(Feeds f, String pathOrUrl) {
        return ProviderRegistry.standard(ALL)
                .create(new ProviderConfig("fuzz", f.type, f.settings(pathOrUrl), f.fields), env());
    }

    @ParameterizedTest
    @EnumSource(Feeds.class)
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyAnswerBecomesAReportNeverAnException(Feeds format) throws Throwable {
        InMemoryFeed feed = new InMemoryFeed(
                adapter(format, format == Feeds.JSON ? "http://127.0.0.1:9/feed" : "feed.txt"), env(), Feeds.MAX_BYTES);
        FuzzRun run = FuzzRun.inProcess("feed." + format.type, 100_000);
        run.forEach((i, r) -> {
            byte[] answer = format.next(r);
            run.check(i, answer, () -> feed.fetch(answer, CTX), report -> verdict(report, answer));
        });
        run.finish();
        run.require(run.accepted() > run.inputs() / 20, "too few answers gave candidates (" + run.accepted() + ")");
    }

    @ParameterizedTest
    @EnumSource(Feeds.class)
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void validAnswersYieldExactlyTheProxiesTheyList(Feeds format) throws Throwable {
        InMemoryFeed feed = new InMemoryFeed(
                adapter(format, format == Feeds.JSON ? "http://127.0.0.1:9/feed" : "feed.txt"), env(), Feeds.MAX_BYTES);
        FuzzRun run = FuzzRun.inProcess("feed." + format.type + ".valid", 5_000);
        run.forEach((i, r) -> {
            List<Map<String, String>> records = validRecords(r, format);
            byte[] answer = format.render(records, r, true).getBytes(StandardCharsets.UTF_8);
            run.check(i, answer, () -> feed.fetch(answer, CTX), report -> {
                List<String> expected = new ArrayList<>();
                for (Map<String, String> rec : records) {
                    expected.add(rec.get("protocol") + " " + rec.get("host") + " " + rec.get("port") + " "
                            + rec.getOrDefault("country", "-"));
                }
                List<String> got = new ArrayList<>();
                for (Proxy p : report.candidates()) {
                    got.add(p.protocol().wireName() + " " + p.host() + " " + p.port() + " "
                            + java.util.Objects.requireNonNullElse(p.labels().get("country"), "-"));
                }
                assertEquals(expected, got, "candidates of a valid answer; report " + report);
                assertEquals(0, report.dropped(), "drops in a valid answer: " + report.drops());
                return Outcome.parsed(records.isEmpty() ? "empty" : "proxies");
            });
        });
        run.finish();
    }

    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void answersOverRealHttpBecomeReportsToo() throws Throwable {
        AtomicReference<byte[]> current = new AtomicReference<>(new byte[0]);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/feed", ex -> {
            byte[] body = current.get();
            ex.getResponseHeaders().set("Content-Type", "application/octet-stream");
            ex.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            } finally {
                ex.close();
            }
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/feed";
            Map<Feeds, ProviderAdapter> adapters = new LinkedHashMap<>();
            for (Feeds f : Feeds.values()) {
                adapters.put(f, adapter(f, url));
            }
            FuzzRun run = FuzzRun.live("feed.http", 2_000);
            run.forEach((i, r) -> {
                Feeds f = Feeds.values()[r.nextInt(Feeds.values().length)];
                byte[] answer = f.next(r);
                current.set(answer);
                run.check(i, answer, () -> adapters.get(f).fetch(CTX), report -> {
                    Outcome o = verdict(report, answer);
                    return o.accepted() ? Outcome.parsed(f.type) : Outcome.refused(f.type + " " + o.kind());
                });
            });
            run.finish();
        } finally {
            server.stop(0);
        }
    }

    /** The adapter contract for one answer. */
    static Outcome verdict(FetchReport report, byte[] answer) {
        assertTrue(report != null, "no report");
        assertEquals("fuzz", report.provider());
        assertEquals(CTX.upstream(), report.upstream());
        assertTrue(report.dropSamples().size() <= FetchReport.MAX_SAMPLES, "drop samples");
        if (report.outcome() instanceof FetchOutcome.Error e) {
            assertTrue(
                    e.kind() == FetchOutcome.ErrorKind.PARSE || e.kind() == FetchOutcome.ErrorKind.SIZE_LIMIT,
                    "error kind " + e.kind() + ": " + e.detail());
            assertTrue(!e.detail().isBlank(), "an error without a detail");
            assertTrue(!e.detail().startsWith("unreadable answer ("), "a parser threw: " + e.detail());
            assertTrue(
                    e.kind() != FetchOutcome.ErrorKind.SIZE_LIMIT || answer.length > Feeds.MAX_BYTES,
                    "size limit under maxBytes");
            assertTrue(
                    report.bytesRead() <= Feeds.MAX_BYTES + 1, "read " + report.bytesRead() + " bytes, over maxBytes");
            return Outcome.refused(e.kind().label() + " " + detailKind(e.detail()));
        }
        assertTrue(answer.length <= Feeds.MAX_BYTES, "an answer over maxBytes was read: " + report);
        String text = new String(answer, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
        Set<Object> keys = new HashSet<>();
        for (Proxy p : report.candidates()) {
            assertTrue(keys.add(p.key()), "duplicate candidate " + p.key());
            assertTrue(p.port() >= 1 && p.port() <= 65535, "port " + p.port());
            assertTrue(
                    p.host().indexOf(':') >= 0 || text.contains(p.host()),
                    "host '" + p.host() + "' is not in the answer");
            p.labels().values().forEach((k, v) -> {
                assertTrue(v.length() <= 256, "label value length");
                v.chars().forEach(c -> assertTrue(!Character.isISOControl(c), "control character in a label"));
            });
        }
        if (report.outcome() instanceof FetchOutcome.Success s) {
            assertEquals(report.candidates().size(), s.newCandidates(), "success count");
            return Outcome.parsed("success");
        }
        assertEquals(0, report.candidates().size(), "an empty outcome with candidates");
        return Outcome.refused("empty");
    }

    private static String detailKind(String detail) {
        int cut = detail.length();
        for (String stop : new String[] {":", "(", "'"}) {
            int at = detail.indexOf(stop);
            if (at > 0 && at < cut) {
                cut = at;
            }
        }
        return detail.substring(0, Math.min(cut, 40)).strip();
    }

    /** Up to 20 valid records with distinct keys (TEXT carries no labels). */
    static List<Map<String, String>> validRecords(SplittableRandom r, Feeds format) {
        List<Map<String, String>> out = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (int n = r.nextInt(21); n > 0; n--) {
            Map<String, String> rec = new LinkedHashMap<>();
            String host = switch (r.nextInt(3)) {
                case 0 -> (1 + r.nextInt(223)) + "." + r.nextInt(256) + "." + r.nextInt(256) + "." + r.nextInt(256);
                case 1 -> "p" + r.nextInt(10_000) + ".proxy-" + r.nextInt(50) + ".example";
                default -> "2001:db8::" + Integer.toHexString(1 + r.nextInt(0xffff));
            };
            String port = Integer.toString(1 + r.nextInt(65535));
            String protocol = Feeds.pick(r, new String[] {"http", "https", "socks4", "socks5"});
            if (!keys.add(protocol + host + port)) {
                continue;
            }
            rec.put("host", host);
            rec.put("port", port);
            rec.put("protocol", protocol);
            if (format != Feeds.TEXT && r.nextBoolean()) {
                rec.put(
                        "country",
                        Feeds.pick(r, new String[] {"US", "DE", "S\u00e3o Paulo", "D, E", "say \"hi\"", "\u4e2d"}));
            }
            out.add(rec);
        }
        return out;
    }
}
