package dev.proxypool.cli;

import dev.proxypool.core.model.AddressMask;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.ExtractedProxyView;
import dev.proxypool.sdk.Extraction;
import dev.proxypool.sdk.ExtractionResponse;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.remote.DistributionClient;
import dev.proxypool.sdk.remote.DistributionException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "extract",
        mixinStandardHelpOptions = true,
        description = {
            "Extract proxies exclusively from a running server (POST /v1/extractions).",
            "Extracted proxies leave the pool for good. The table masks addresses and",
            "hides the URLs, which carry credentials: add --show-urls to print them,",
            "or use --json in scripts (it includes the URLs)."
        },
        footer = {
            "",
            "Examples:",
            "  export PROXYPOOL_TOKEN=...",
            "  proxypool extract --count 5 --protocol http --country US",
            "  proxypool extract --count 10 --label type=residential --min-ttl 10m \\",
            "      --all-or-nothing --json",
            "  proxypool extract --count 1 --idempotency-key job-42 \\",
            "      --api http://10.0.0.5:9090 --show-urls"
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:all requested proxies extracted",
            "1:error (server unreachable, unauthorized, quota exceeded, store unavailable, ...)",
            "2:usage (bad options, or the server refused the request as invalid)",
            "3:fewer than requested (partial result, or insufficient proxies for --all-or-nothing)"
        })
final class ExtractCommand implements Callable<Integer> {

    static final String TOKEN_ENV = "PROXYPOOL_TOKEN";

    @Spec
    CommandSpec spec;

    @Option(names = "--count", required = true, paramLabel = "N", description = "How many proxies (1..1000).")
    int count;

    @Option(names = "--protocol", paramLabel = "P", description = "http, https, socks4 or socks5.")
    String protocol;

    @Option(names = "--country", paramLabel = "C", description = "Label country, e.g. US.")
    String country;

    @Option(names = "--region", paramLabel = "R", description = "Label region.")
    String region;

    @Option(names = "--city", paramLabel = "X", description = "Label city.")
    String city;

    @Option(names = "--carrier", paramLabel = "Y", description = "Label carrier.")
    String carrier;

    @Option(names = "--upstream", paramLabel = "U", description = "Only proxies of this upstream.")
    String upstream;

    @Option(names = "--label", paramLabel = "KEY=VALUE", description = "A required label; repeatable.")
    Map<String, String> labels = new LinkedHashMap<>();

    @Option(
            names = "--min-ttl",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "Minimum remaining lifetime, e.g. 60s, 10m (default: any unexpired proxy).")
    Duration minTtl = Duration.ZERO;

    @Option(
            names = "--all-or-nothing",
            description = "Extract exactly --count or nothing (default: as many as possible).")
    boolean allOrNothing;

    @Option(
            names = "--idempotency-key",
            paramLabel = "K",
            description =
                    "Retry-safe key: the same key and options return the first answer instead of extracting again.")
    String idempotencyKey;

    @Mixin
    RemoteApiOptions remote;

    @Option(names = "--json", description = "Print one JSON object for scripts (it includes the URLs).")
    boolean json;

    @Option(names = "--show-urls", description = "Add the proxy URLs, credentials included, to the table.")
    boolean showUrls;

    @Override
    public Integer call() {
        Extraction extraction;
        DistributionClient client;
        try {
            extraction = extraction();
            client = remote.client();
        } catch (IllegalArgumentException e) {
            return CliErrors.fail(spec, Main.EXIT_USAGE, e.getMessage(), e);
        }
        try (client) {
            ExtractionResponse r = client.extract(extraction);
            print(r);
            return r.complete() ? Main.EXIT_OK : Main.EXIT_PARTIAL;
        } catch (DistributionException e) {
            if (json) {
                printError(e);
            }
            int exit = switch (e) {
                case DistributionException.InsufficientProxies i -> Main.EXIT_PARTIAL;
                case DistributionException.InvalidRequest i -> Main.EXIT_USAGE;
                case DistributionException.QuotaExceeded q -> Main.EXIT_ERROR;
                case DistributionException.Unauthorized u -> Main.EXIT_ERROR;
                case DistributionException.StoreUnavailable s -> Main.EXIT_ERROR;
                case DistributionException.CredentialsUnavailable c -> Main.EXIT_ERROR;
                case DistributionException.RequestInProgress p -> Main.EXIT_ERROR;
                case DistributionException.IdempotencyMismatch m -> Main.EXIT_ERROR;
                case DistributionException.NothingToLease n -> Main.EXIT_ERROR;
                case DistributionException.UnknownLease u -> Main.EXIT_ERROR;
                case DistributionException.ServerUnreachable s -> Main.EXIT_ERROR;
                case DistributionException.UnexpectedResponse u -> Main.EXIT_ERROR;
            };
            return CliErrors.fail(spec, exit, e.getMessage(), e);
        }
    }

    private Extraction extraction() {
        Extraction e = Extraction.of(count);
        if (protocol != null) {
            e = e.protocol(Protocol.parse(protocol));
        }
        if (country != null) {
            e = e.country(country);
        }
        if (region != null) {
            e = e.region(region);
        }
        if (city != null) {
            e = e.city(city);
        }
        if (carrier != null) {
            e = e.carrier(carrier);
        }
        if (upstream != null) {
            e = e.upstream(upstream);
        }
        for (Map.Entry<String, String> label : labels.entrySet()) {
            e = e.label(label.getKey(), label.getValue());
        }
        e = e.minRemainingTtl(minTtl);
        if (allOrNothing) {
            e = e.allOrNothing();
        }
        if (idempotencyKey != null) {
            e = e.idempotencyKey(idempotencyKey);
        }
        return e;
    }

    private void print(ExtractionResponse r) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("requested", r.requested());
            body.put("extracted", r.extracted());
            body.put("replayed", r.replayed());
            List<Map<String, Object>> proxies = new ArrayList<>();
            for (ExtractedProxyView p : r.proxies()) {
                proxies.add(proxy(p));
            }
            body.put("proxies", proxies);
            out.println(JsonCodec.write(body));
        } else {
            Table t = showUrls
                    ? new Table("ID", "HOST", "PROTOCOL", "COUNTRY", "TTL", "URL")
                    : new Table("ID", "HOST", "PROTOCOL", "COUNTRY", "TTL");
            for (ExtractedProxyView p : r.proxies()) {
                String host = AddressMask.mask(p.host()) + ":" + p.port();
                String ttl = p.remainingTtlSeconds().isPresent()
                        ? ttl(p.remainingTtlSeconds().getAsLong())
                        : "never";
                String cc = p.labels().getOrDefault("country", "-");
                if (showUrls) {
                    t.row(p.id(), host, p.protocol().wireName(), cc, ttl, p.url());
                } else {
                    t.row(p.id(), host, p.protocol().wireName(), cc, ttl);
                }
            }
            if (t.size() > 0) {
                t.print(out);
            }
            out.println("extracted " + r.extracted() + " of " + r.requested()
                    + (r.complete() ? "" : " (fewer than requested)") + (r.replayed() ? " (replayed answer)" : ""));
        }
        out.flush();
    }

    private static Map<String, Object> proxy(ExtractedProxyView p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", p.id());
        m.put("url", p.url());
        m.put("protocol", p.protocol().wireName());
        m.put("host", p.host());
        m.put("port", p.port());
        m.put("labels", new TreeMap<>(p.labels()));
        m.put("expiresAt", p.expiresAt().map(Instant::toString).orElse(null));
        m.put(
                "remainingTtlSeconds",
                p.remainingTtlSeconds().isPresent() ? p.remainingTtlSeconds().getAsLong() : null);
        return m;
    }

    /** For scripts: the error as JSON on stdout too (the one-line message goes to stderr). */
    private void printError(DistributionException e) {
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", e.errorCode().isEmpty() ? "unexpected_response" : e.errorCode());
        body.put("status", e.status());
        body.put("message", e.getMessage());
        switch (e) {
            case DistributionException.InsufficientProxies i -> {
                body.put("requested", i.requested());
                body.put("available", i.available());
            }
            case DistributionException.QuotaExceeded q -> {
                body.put("limit", q.limit());
                body.put("used", q.used());
                body.put("retryAfterSeconds", q.retryAfter().toSeconds());
            }
            default -> {}
        }
        out.println(JsonCodec.write(body));
        out.flush();
    }

    /** {@code 29m00s}, {@code 1h05m}, {@code 45s}. */
    static String ttl(long seconds) {
        if (seconds >= 3600) {
            return String.format(Locale.ROOT, "%dh%02dm", seconds / 3600, seconds % 3600 / 60);
        }
        if (seconds >= 60) {
            return String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60);
        }
        return seconds + "s";
    }
}
