package dev.proxypool.cli;

import dev.proxypool.cli.bench.BenchResult;
import dev.proxypool.cli.bench.LoadRun;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.Extraction;
import dev.proxypool.sdk.ExtractionResponse;
import dev.proxypool.sdk.remote.DistributionClient;
import dev.proxypool.sdk.remote.DistributionException;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.LongAdder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "extraction",
        mixinStandardHelpOptions = true,
        description = {
            "Call POST /v1/extractions in closed loops from N connections.",
            "WARNING: every extracted proxy leaves the pool for good; use a test pool.",
            "A 200 is a success even with fewer proxies than asked (counted as 'short');",
            "error answers are counted by API error code (quota_exceeded, ...)."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool bench extraction --api http://127.0.0.1:9090 --token $PROXYPOOL_TOKEN",
            "  proxypool bench extraction --count 5 --connections 16 --duration 30s --json"
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:finished, at least one request succeeded", "1:no request succeeded", "2:usage (bad options)"
        })
final class BenchExtractionCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--api",
            paramLabel = "URL",
            defaultValue = "http://127.0.0.1:9090",
            description = "The server's REST listener (default ${DEFAULT-VALUE}).")
    String api;

    @Option(
            names = "--token",
            paramLabel = "T",
            defaultValue = "${env:" + ExtractCommand.TOKEN_ENV + "}",
            description = "Client token (default: the " + ExtractCommand.TOKEN_ENV + " environment variable).")
    String token;

    @Mixin
    CaCertOption caCert;

    @Option(
            names = "--count",
            paramLabel = "N",
            defaultValue = "1",
            description = "Proxies per request (default ${DEFAULT-VALUE}).")
    int count;

    @Option(
            names = "--connections",
            paramLabel = "N",
            defaultValue = "8",
            description = "Concurrent callers (default ${DEFAULT-VALUE}).")
    int connections;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            defaultValue = "10s",
            description = "How long (default ${DEFAULT-VALUE}, at most 1h).")
    Duration duration;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            defaultValue = "10s",
            description = "Connect and read timeout of one call (default ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(
            names = "--upstream",
            paramLabel = "NAME",
            description = "Extract only from this upstream (default with the demo's token: sessions, so the demo"
                    + " gateway's own proxies stay in the pool; otherwise any).")
    String upstream;

    @Option(names = "--json", description = "Print one JSON object for scripts.")
    boolean json;

    /**
     * The upstream extraction defaults to with {@code token}: {@code sessions} with the demo's client
     * token (the demo's extraction inventory: its gateway's three proxies must stay in the pool, as
     * extraction is permanent), otherwise none.
     */
    static String demoDefaultUpstream(String token) {
        return Demo.TOKEN.equals(token == null ? null : token.strip()) ? "sessions" : null;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (token == null || token.isBlank()) {
            return CliErrors.fail(
                    spec, Main.EXIT_USAGE, "no token: pass --token or set " + ExtractCommand.TOKEN_ENV, null);
        }
        DistributionClient client;
        Extraction call;
        try {
            String from = upstream != null ? upstream : demoDefaultUpstream(token);
            call = from == null ? Extraction.of(count) : Extraction.of(count).upstream(from);
            DistributionClient.Builder builder = DistributionClient.builder(URI.create(api.strip()))
                    .token(token)
                    .timeout(timeout);
            client = caCert.applyTo(builder).build();
        } catch (IllegalArgumentException e) {
            return CliErrors.fail(spec, Main.EXIT_USAGE, e.getMessage(), e);
        }
        LongAdder extracted = new LongAdder();
        LongAdder shortAnswers = new LongAdder();
        BenchResult r;
        try (client) {
            r = LoadRun.run(
                    connections,
                    duration,
                    timeout.plusSeconds(1),
                    Clocks.monotonic(),
                    i -> new LoadRun.Worker() {
                        @Override
                        public String attempt() {
                            try {
                                ExtractionResponse response = client.extract(call);
                                extracted.add(response.extracted());
                                if (!response.complete()) {
                                    shortAnswers.increment();
                                }
                                return null;
                            } catch (DistributionException e) {
                                return e.errorCode().isEmpty() ? "http_" + e.status() : e.errorCode();
                            }
                        }

                        @Override
                        public void close() {
                            // the client is shared and closed once
                        }
                    },
                    line -> {
                        spec.commandLine().getErr().println(line);
                        spec.commandLine().getErr().flush();
                    });
        } catch (IllegalArgumentException e) {
            return CliErrors.fail(spec, Main.EXIT_USAGE, e.getMessage(), e);
        }
        Map<String, Long> extra = new LinkedHashMap<>();
        extra.put("proxiesExtracted", extracted.sum());
        extra.put("short", shortAnswers.sum());
        return BenchOutput.print(spec, json, "extraction", client.endpoint().toString(), r, extra);
    }
}
