package dev.proxypool.cli;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.config.ConfigException;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.credentials.CredentialStore;
import dev.proxypool.sdk.credentials.FileCredentialStore;
import dev.proxypool.sdk.credentials.InlineCredentials;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import dev.proxypool.sdk.dial.UpstreamDialer;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.provider.FetchContext;
import dev.proxypool.sdk.provider.FetchReport;
import dev.proxypool.sdk.provider.ProviderAdapter;
import dev.proxypool.sdk.provider.ProviderConfig;
import dev.proxypool.sdk.provider.ProviderEnvironment;
import dev.proxypool.sdk.provider.ProviderRegistry;
import dev.proxypool.sdk.validate.EchoServer;
import dev.proxypool.sdk.validate.EchoUnavailableException;
import dev.proxypool.sdk.validate.ValidationResult;
import dev.proxypool.sdk.validate.Validator;
import dev.proxypool.sdk.validate.ValidatorSettings;
import dev.proxypool.server.persistence.JsonTree;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "test",
        mixinStandardHelpOptions = true,
        description = {
            "Fetch one provider once and show its candidates and drops; nothing is published.",
            "A session_gateway materialises its sessions instead. The dropped records are",
            "counted by reason; the output is a table, or one JSON object with --json.",
            "The upstream's params fill the provider's placeholders (--upstream, default: the",
            "first upstream of the provider). --validate N sends the first N candidates through",
            "the real validator (a local echo endpoint unless --echo-url).",
            "With --api the running server does the dry run on the configuration in force",
            "(PostgreSQL's, when it holds the configuration), with its own credentials and files,",
            "and validates through its own validator (admin token: --token or PROXYPOOL_ADMIN_TOKEN)."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool provider test vendor-a --config proxypool.yaml",
            "  proxypool provider test oxylabs --upstream oxylabs-de --validate 3",
            "  proxypool provider test feed --json > dry-run.json",
            "  proxypool provider test oxylabs --api http://10.0.0.5:9090 --token $T --validate 2"
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the provider answered with at least one candidate (and, with --validate, one passed)",
            "1:the fetch failed, no candidate, or none of the validated passed",
            "2:usage (bad options, bad config, unknown provider or upstream)"
        })
final class ProviderTestCommand implements Callable<Integer> {

    /** Candidates the server validates at most in one dry run ({@code POST /v1/admin/providers/{name}/test}). */
    static final int REMOTE_MAX_VALIDATE = 100;

    /** How long the server's dry run may take: its fetch deadline and the validation of the sample. */
    private static final Duration REMOTE_TIMEOUT = Duration.ofMinutes(3);

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "The provider's name in the config.")
    String name;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            defaultValue = "proxypool.yaml",
            description = "Configuration file (default ${DEFAULT-VALUE}).")
    Path config;

    @Option(names = "--upstream", paramLabel = "U", description = "The upstream whose params are used.")
    String upstream;

    @Option(
            names = "--validate",
            paramLabel = "N",
            defaultValue = "0",
            description = "Validate the first N candidates (default ${DEFAULT-VALUE}: none).")
    int validate;

    @Option(
            names = "--echo-url",
            paramLabel = "URL",
            description = "Echo endpoint the proxies can reach (default: start one on 127.0.0.1).")
    String echoUrl;

    @Option(names = "--json", description = "Print one JSON object for scripts.")
    boolean json;

    @Option(
            names = "--api",
            paramLabel = "URL",
            description = "A running server's REST listener: test the provider of its configuration in force.")
    String api;

    @Option(
            names = "--token",
            paramLabel = "T",
            defaultValue = "${env:PROXYPOOL_ADMIN_TOKEN}",
            description = "With --api: admin bearer token (default: the PROXYPOOL_ADMIN_TOKEN environment variable).")
    String token;

    @Mixin
    CaCertOption caCert;

    @Override
    public Integer call() throws InterruptedException {
        if (validate < 0 || validate > 10_000) {
            return CliErrors.fail(spec, Main.EXIT_USAGE, "--validate: between 0 and 10000, got " + validate, null);
        }
        if (api != null) {
            return remote();
        }
        ProxyPoolConfig cfg;
        try {
            cfg = ConfigLoader.load(config.toAbsolutePath(), System.getenv());
        } catch (ConfigException e) {
            return CliErrors.fail(spec, Main.EXIT_USAGE, "bad config: " + e.getMessage(), e);
        }
        ProxyPoolConfig.Provider provider = cfg.providers().stream()
                .filter(p -> p.name().equals(name))
                .findFirst()
                .orElse(null);
        if (provider == null) {
            List<String> known =
                    cfg.providers().stream().map(ProxyPoolConfig.Provider::name).toList();
            return CliErrors.fail(
                    spec,
                    Main.EXIT_USAGE,
                    "no provider '" + name + "' in " + config + " (providers: "
                            + (known.isEmpty() ? "none" : String.join(", ", known)) + ")",
                    null);
        }
        List<ProxyPoolConfig.Upstream> ofProvider =
                cfg.upstreams().stream().filter(u -> u.provider().equals(name)).toList();
        ProxyPoolConfig.Upstream up = null;
        if (upstream != null) {
            up = ofProvider.stream()
                    .filter(u -> u.name().equals(upstream))
                    .findFirst()
                    .orElse(null);
            if (up == null) {
                return CliErrors.fail(
                        spec,
                        Main.EXIT_USAGE,
                        "--upstream: no upstream '" + upstream + "' of provider '" + name + "' (upstreams: "
                                + (ofProvider.isEmpty()
                                        ? "none"
                                        : String.join(
                                                ", ",
                                                ofProvider.stream()
                                                        .map(ProxyPoolConfig.Upstream::name)
                                                        .toList()))
                                + ")",
                        null);
            }
        } else if (!ofProvider.isEmpty()) {
            up = ofProvider.get(0);
        }
        InlineCredentials inline = new InlineCredentials();
        ProviderAdapter adapter;
        try {
            adapter = ProviderRegistry.standard(Set.of(provider.type()))
                    .create(
                            new ProviderConfig(
                                    provider.name(), provider.type(), provider.settings(), provider.fields()),
                            new ProviderEnvironment(
                                    System.getenv(),
                                    config.toAbsolutePath().getParent(),
                                    Clocks.wall(),
                                    Clocks.monotonic(),
                                    inline));
        } catch (IllegalArgumentException e) {
            return CliErrors.fail(spec, Main.EXIT_USAGE, "bad config: " + e.getMessage(), e);
        }
        String upstreamName = up != null ? up.name() : name;
        Map<String, String> params = up != null ? up.params() : Map.of();
        FetchReport report = adapter.fetch(new FetchContext(upstreamName, params, FetchContext.DEFAULT_TIMEOUT));

        ValidationResult[] verdicts = new ValidationResult[0];
        if (!report.isError() && validate > 0 && !report.candidates().isEmpty()) {
            List<Proxy> sample = report.candidates()
                    .subList(0, Math.min(validate, report.candidates().size()));
            try {
                verdicts = validate(sample, inline.over(credentialStore(cfg)), cfg);
            } catch (EchoUnavailableException e) {
                return CliErrors.fail(spec, Main.EXIT_ERROR, "echo endpoint unusable: " + e.getMessage(), e);
            }
        }
        print(report, verdicts);
        if (report.outcome() instanceof FetchOutcome.Error e) {
            return CliErrors.fail(
                    spec,
                    Main.EXIT_ERROR,
                    "fetch of provider '" + name + "' (upstream " + upstreamName + ") failed: "
                            + e.kind().name().toLowerCase(Locale.ROOT) + ": " + e.detail(),
                    null);
        }
        if (report.candidates().isEmpty()) {
            return CliErrors.fail(
                    spec,
                    Main.EXIT_ERROR,
                    "provider '" + name + "' gave no candidate"
                            + (report.dropped() > 0
                                    ? " (" + report.dropped() + " dropped: " + report.drops() + ")"
                                    : ""),
                    null);
        }
        if (verdicts.length > 0 && Arrays.stream(verdicts).noneMatch(v -> v instanceof ValidationResult.Accepted)) {
            return CliErrors.fail(
                    spec, Main.EXIT_ERROR, "none of the " + verdicts.length + " validated candidates passed", null);
        }
        return Main.EXIT_OK;
    }

    private ValidationResult[] validate(List<Proxy> sample, CredentialStore store, ProxyPoolConfig cfg)
            throws InterruptedException, EchoUnavailableException {
        EchoServer ownEcho = echoUrl == null ? EchoServer.start() : null;
        try {
            ValidatorSettings settings = ValidatorSettings.builder()
                    .echoUrl(ownEcho != null ? ownEcho.url() : URI.create(echoUrl))
                    .concurrency(Math.min(100, sample.size()))
                    .queueCapacity(Math.max(2, 2 * sample.size()))
                    .timeout(cfg.pipeline().validationTimeout())
                    .build();
            Validator validator = Validator.builder(UpstreamDialer.create(store))
                    .settings(settings)
                    .start();
            return validator.validateInOrder(sample);
        } finally {
            if (ownEcho != null) {
                ownEcho.close();
            }
        }
    }

    private static CredentialStore credentialStore(ProxyPoolConfig cfg) {
        return cfg.credentials()
                .file()
                .<CredentialStore>map(FileCredentialStore::open)
                .orElseGet(StaticCredentialStore::empty);
    }

    private void print(FetchReport report, ValidationResult[] verdicts) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("provider", report.provider());
            m.put("upstream", report.upstream());
            m.put("outcome", outcome(report.outcome()));
            m.put("error", report.outcome() instanceof FetchOutcome.Error e ? e.detail() : null);
            List<Map<String, Object>> candidates = new ArrayList<>();
            for (Proxy p : report.candidates()) {
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("id", p.id());
                c.put("protocol", p.protocol().wireName());
                c.put("address", ValidateCommand.masked(p));
                c.put("labels", p.labels().values());
                c.put("expiresAt", p.expires() ? p.expiresAt().toString() : null);
                candidates.add(c);
            }
            m.put("candidates", candidates);
            m.put("drops", report.drops());
            m.put("bytesRead", report.bytesRead());
            m.put("durationMs", report.duration().toMillis());
            m.put("validated", ValidationOutput.rows(verdicts, null));
            out.println(JsonCodec.write(m));
        } else {
            Table t = new Table("PROTOCOL", "ADDRESS", "LABELS", "EXPIRES");
            for (Proxy p : report.candidates()) {
                t.row(
                        p.protocol().wireName(),
                        ValidateCommand.masked(p),
                        p.labels().isEmpty() ? "-" : p.labels().values().toString(),
                        p.expires() ? p.expiresAt().toString() : "-");
            }
            if (t.size() > 0) {
                t.print(out);
                out.println();
            }
            if (!report.drops().isEmpty()) {
                Table d = new Table("DROP_REASON", "COUNT");
                report.drops().forEach((r, n) -> d.row(r, Integer.toString(n)));
                d.print(out);
                out.println();
            }
            out.println(report.provider() + "/" + report.upstream() + ": " + outcome(report.outcome()) + ", "
                    + report.candidates().size() + " candidate(s), " + report.dropped() + " dropped, "
                    + report.bytesRead() + " bytes in " + report.duration().toMillis() + " ms");
            if (verdicts.length > 0) {
                out.println();
                ValidationOutput.table(verdicts, null).print(out);
            }
        }
        out.flush();
    }

    /** {@code --api}: the server's dry run ({@code POST /v1/admin/providers/{name}/test}), printed as a local one. */
    private Integer remote() throws InterruptedException {
        if (echoUrl != null) {
            return CliErrors.fail(
                    spec,
                    Main.EXIT_USAGE,
                    "--echo-url does not apply with --api (the server validates through its own echo endpoint)",
                    null);
        }
        if (validate > REMOTE_MAX_VALIDATE) {
            return CliErrors.fail(
                    spec,
                    Main.EXIT_USAGE,
                    "--validate: at most " + REMOTE_MAX_VALIDATE + " with --api, got " + validate,
                    null);
        }
        if (token == null || token.isBlank()) {
            return CliErrors.fail(
                    spec, Main.EXIT_USAGE, "no admin token: pass --token or set PROXYPOOL_ADMIN_TOKEN", null);
        }
        String base = api.strip();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        URI uri;
        try {
            uri = URI.create(base + "/v1/admin/providers/" + URLEncoder.encode(name, StandardCharsets.UTF_8) + "/test");
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new IllegalArgumentException("not http(s)");
            }
        } catch (IllegalArgumentException e) {
            return CliErrors.fail(
                    spec,
                    Main.EXIT_USAGE,
                    "--api: '" + api + "' is not an http(s) URL (e.g. http://127.0.0.1:9090)",
                    null);
        }
        SSLContext tls;
        try {
            tls = caCert.sslContext();
        } catch (IllegalArgumentException e) {
            return CliErrors.fail(spec, Main.EXIT_USAGE, e.getMessage(), e);
        }
        Map<String, Object> request = new LinkedHashMap<>();
        if (upstream != null) {
            request.put("upstream", upstream);
        }
        request.put("validate", validate);
        HttpClient.Builder hb = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10));
        if (tls != null) {
            hb.sslContext(tls);
        }
        HttpResponse<String> answer;
        try (HttpClient http = hb.build()) {
            answer = http.send(
                    HttpRequest.newBuilder(uri)
                            .timeout(REMOTE_TIMEOUT)
                            .header("Authorization", "Bearer " + token.strip())
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(JsonCodec.write(request)))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return CliErrors.fail(
                    spec, Main.EXIT_ERROR, "cannot reach the server at " + base + ": " + CliErrors.oneLine(e), e);
        }
        Map<String, Object> body;
        try {
            body = JsonTree.parseObject(answer.body());
        } catch (IllegalArgumentException e) {
            return CliErrors.fail(
                    spec,
                    Main.EXIT_ERROR,
                    "the server answered " + answer.statusCode() + " without a JSON object: " + e.getMessage(),
                    null);
        }
        if (answer.statusCode() != 200) {
            String message = answer.statusCode() + " " + body.getOrDefault("error", "error") + ": "
                    + body.getOrDefault("message", "");
            boolean usage = answer.statusCode() >= 400 && answer.statusCode() < 500;
            return CliErrors.fail(spec, usage ? Main.EXIT_USAGE : Main.EXIT_ERROR, message, null);
        }
        printRemote(body);
        String up = String.valueOf(body.get("upstream"));
        if ("error".equals(body.get("outcome"))) {
            return CliErrors.fail(
                    spec,
                    Main.EXIT_ERROR,
                    "fetch of provider '" + name + "' (upstream " + up + ") failed: " + body.get("error"),
                    null);
        }
        List<?> candidates = body.get("candidates") instanceof List<?> l ? l : List.of();
        Map<?, ?> drops = body.get("drops") instanceof Map<?, ?> m ? m : Map.of();
        if (candidates.isEmpty()) {
            long dropped = drops.values().stream()
                    .mapToLong(v -> ((Number) v).longValue())
                    .sum();
            return CliErrors.fail(
                    spec,
                    Main.EXIT_ERROR,
                    "provider '" + name + "' gave no candidate"
                            + (dropped > 0 ? " (" + dropped + " dropped: " + new TreeMap<>(drops) + ")" : ""),
                    null);
        }
        if (body.get("validationError") instanceof String v) {
            return CliErrors.fail(spec, Main.EXIT_ERROR, v, null);
        }
        List<?> validated = body.get("validated") instanceof List<?> l ? l : List.of();
        if (!validated.isEmpty()
                && validated.stream()
                        .noneMatch(v -> v instanceof Map<?, ?> r && Boolean.TRUE.equals(r.get("passed")))) {
            return CliErrors.fail(
                    spec, Main.EXIT_ERROR, "none of the " + validated.size() + " validated candidates passed", null);
        }
        return Main.EXIT_OK;
    }

    private void printRemote(Map<String, Object> body) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JsonCodec.write(body));
            out.flush();
            return;
        }
        List<?> candidates = body.get("candidates") instanceof List<?> l ? l : List.of();
        Table t = new Table("PROTOCOL", "ADDRESS", "LABELS", "EXPIRES");
        for (Object o : candidates) {
            Map<?, ?> c = (Map<?, ?>) o;
            Map<?, ?> labels = c.get("labels") instanceof Map<?, ?> m ? m : Map.of();
            t.row(
                    text(c.get("protocol")),
                    text(c.get("address")),
                    labels.isEmpty() ? "-" : labels.values().toString(),
                    text(c.get("expiresAt")));
        }
        if (t.size() > 0) {
            t.print(out);
            out.println();
        }
        Map<?, ?> drops = body.get("drops") instanceof Map<?, ?> m ? new TreeMap<>(m) : Map.of();
        long dropped = 0;
        if (!drops.isEmpty()) {
            Table d = new Table("DROP_REASON", "COUNT");
            for (Map.Entry<?, ?> e : drops.entrySet()) {
                d.row(text(e.getKey()), text(e.getValue()));
                dropped += ((Number) e.getValue()).longValue();
            }
            d.print(out);
            out.println();
        }
        out.println(body.get("provider") + "/" + body.get("upstream") + ": " + body.get("outcome") + ", "
                + candidates.size() + " candidate(s), " + dropped + " dropped, " + text(body.get("bytesRead"))
                + " bytes in " + text(body.get("durationMs")) + " ms (on the server)");
        List<?> validated = body.get("validated") instanceof List<?> l ? l : List.of();
        if (!validated.isEmpty()) {
            out.println();
            Table v = new Table("PROTOCOL", "ADDRESS", "VERDICT", "LATENCY_MS", "EXIT_IP", "REASON");
            for (Object o : validated) {
                Map<?, ?> r = (Map<?, ?>) o;
                v.row(
                        text(r.get("protocol")),
                        text(r.get("address")),
                        text(r.get("verdict")),
                        text(r.get("latencyMs")),
                        text(r.get("exitIp")),
                        text(r.get("reason")));
            }
            v.print(out);
        }
        out.flush();
    }

    /** A JSON value as a cell: "-" for null, whole numbers without a fraction. */
    private static String text(Object v) {
        if (v == null) {
            return "-";
        }
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
            return Long.toString(n.longValue());
        }
        return v.toString();
    }

    private static String outcome(FetchOutcome o) {
        return switch (o) {
            case FetchOutcome.Success s -> "success";
            case FetchOutcome.Error e -> "error";
            default -> "empty";
        };
    }
}
