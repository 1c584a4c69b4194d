package dev.proxypool.server.admin;

import dev.proxypool.core.model.AddressMask;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ConfigException;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.credentials.InlineCredentials;
import dev.proxypool.sdk.dial.UpstreamDialer;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.provider.FetchContext;
import dev.proxypool.sdk.provider.FetchReport;
import dev.proxypool.sdk.provider.ProviderAdapter;
import dev.proxypool.sdk.provider.ProviderConfig;
import dev.proxypool.sdk.provider.ProviderEnvironment;
import dev.proxypool.sdk.provider.ProviderRegistry;
import dev.proxypool.sdk.validate.EchoUnavailableException;
import dev.proxypool.sdk.validate.ValidationResult;
import dev.proxypool.sdk.validate.Validator;
import dev.proxypool.sdk.validate.ValidatorSettings;
import dev.proxypool.server.persistence.AuditRecord;
import dev.proxypool.server.persistence.ConfigState;
import dev.proxypool.server.persistence.ConfigStore;
import dev.proxypool.server.persistence.DatabaseUnavailableException;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code POST /v1/admin/providers/{name}/test}: the provider dry run of {@code proxypool provider
 * test} on the server, against the configuration in force (PostgreSQL's, when it holds the
 * configuration) with the server's own credentials, environment and files: fetch (or, for a
 * {@code session_gateway}, materialise fresh sessions) once, publish nothing, answer the candidates
 * (addresses masked) and the drops by reason; with {@code validate: N}, the first N candidates go
 * through the real validator (this process's dialer and echo endpoint). Body (optional):
 * {@code {"upstream": "U", "validate": N}}; the upstream's params fill the provider's placeholders
 * (default: the provider's first upstream). {@code 200} whatever the fetch's outcome
 * ({@code outcome} {@code success}, {@code empty} or {@code error} with {@code error} in words),
 * {@code 404} for an unknown provider, {@code 400} for an unknown upstream or bad settings.
 * Audited ({@code provider.test}): it calls the vendor.
 */
final class ProviderTestResource {

    /** Candidates validated at most in one dry run. */
    static final int MAX_VALIDATE = 100;

    private final ProxyPool pool;
    private final ConfigStore store;
    private final Path baseDir;

    ProviderTestResource(ProxyPool pool, ConfigStore store, Path baseDir) {
        this.pool = pool;
        this.store = store;
        this.baseDir = baseDir;
    }

    void test(ServerRequest req, ServerResponse res) throws InterruptedException {
        String name = req.path().pathParameters().get("name");
        Map<String, Object> body = AdminJson.optionalObject(req);
        String upstream = null;
        int validate = 0;
        for (Map.Entry<String, Object> e : body.entrySet()) {
            switch (e.getKey()) {
                case "upstream" -> {
                    if (!(e.getValue() instanceof String s) || s.isBlank()) {
                        throw AdminException.invalid("upstream: an upstream name");
                    }
                    upstream = s;
                }
                case "validate" -> {
                    if (!(e.getValue() instanceof Number n)
                            || n.doubleValue() != Math.rint(n.doubleValue())
                            || n.intValue() < 0
                            || n.intValue() > MAX_VALIDATE) {
                        throw AdminException.invalid("validate: a whole number from 0 to " + MAX_VALIDATE);
                    }
                    validate = n.intValue();
                }
                default ->
                    throw AdminException.invalid("unknown field '" + e.getKey() + "' (expected upstream, validate)");
            }
        }
        ProxyPoolConfig cfg;
        try {
            cfg = inForce().validate(baseDir);
        } catch (ConfigException e) {
            throw AdminException.invalid("the configuration in force does not load: " + e.getMessage());
        }
        ProxyPoolConfig.Provider provider = cfg.providers().stream()
                .filter(p -> p.name().equals(name))
                .findFirst()
                .orElseThrow(() -> AdminException.notFound("no provider named '" + name + "'"));
        List<ProxyPoolConfig.Upstream> ofProvider =
                cfg.upstreams().stream().filter(u -> u.provider().equals(name)).toList();
        ProxyPoolConfig.Upstream up;
        if (upstream != null) {
            String wanted = upstream;
            up = ofProvider.stream()
                    .filter(u -> u.name().equals(wanted))
                    .findFirst()
                    .orElseThrow(() -> AdminException.invalid("upstream: no upstream '" + wanted + "' of provider '"
                            + name + "' (upstreams: "
                            + (ofProvider.isEmpty()
                                    ? "none"
                                    : String.join(
                                            ", ",
                                            ofProvider.stream()
                                                    .map(ProxyPoolConfig.Upstream::name)
                                                    .toList()))
                            + ")"));
        } else {
            up = ofProvider.isEmpty() ? null : ofProvider.get(0);
        }
        store.audit(AuditRecord.of(
                AdminIdentity.actor(req),
                "provider.test",
                "provider",
                name,
                null,
                Map.of("upstream", up == null ? name : up.name(), "validate", validate)));
        // a fresh inline store: the dry run's sessions and listed logins never reach the live pool's
        InlineCredentials inline = new InlineCredentials();
        PoolEngine engine = EmbeddedProxyPool.engineOf(pool);
        ProviderAdapter adapter;
        try {
            adapter = ProviderRegistry.standard(Set.of(provider.type()))
                    .create(
                            new ProviderConfig(
                                    provider.name(), provider.type(), provider.settings(), provider.fields()),
                            new ProviderEnvironment(
                                    System.getenv(), baseDir, engine.wallClock(), engine.ticker(), inline));
        } catch (IllegalArgumentException e) {
            throw AdminException.invalid(e.getMessage());
        }
        String upstreamName = up != null ? up.name() : name;
        FetchReport report = adapter.fetch(
                new FetchContext(upstreamName, up != null ? up.params() : Map.of(), FetchContext.DEFAULT_TIMEOUT));
        List<Map<String, Object>> validated = new ArrayList<>();
        String validationError = null;
        if (!report.isError() && validate > 0 && !report.candidates().isEmpty()) {
            List<Proxy> sample = report.candidates()
                    .subList(0, Math.min(validate, report.candidates().size()));
            try {
                for (ValidationResult r : validate(sample, inline)) {
                    if (r != null) {
                        validated.add(row(r));
                    }
                }
            } catch (EchoUnavailableException e) {
                validationError = "echo endpoint unusable: " + e.getMessage();
            }
        }
        AdminJson.send(res, 200, view(report, validated, validationError));
    }

    private ConfigState inForce() {
        try {
            return store.state();
        } catch (DatabaseUnavailableException e) {
            return store.lastKnownState().orElseThrow(() -> e);
        }
    }

    private ValidationResult[] validate(List<Proxy> sample, InlineCredentials inline)
            throws InterruptedException, EchoUnavailableException {
        ValidatorSettings settings = ValidatorSettings.from(pool.config().pipeline()).toBuilder()
                .concurrency(Math.min(100, sample.size()))
                .queueCapacity(Math.max(2, 2 * sample.size()))
                .build();
        Validator validator = Validator.builder(UpstreamDialer.create(inline.over(pool.credentials())))
                .settings(settings)
                .start();
        return validator.validateInOrder(sample);
    }

    /** The answer: the shape of {@code proxypool provider test --json}, addresses masked. */
    static Map<String, Object> view(FetchReport report, List<Map<String, Object>> validated, String validationError) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("provider", report.provider());
        m.put("upstream", report.upstream());
        m.put("outcome", outcome(report.outcome()));
        m.put(
                "error",
                report.outcome() instanceof FetchOutcome.Error e
                        ? e.kind().name().toLowerCase(Locale.ROOT) + ": " + e.detail()
                        : null);
        List<Map<String, Object>> candidates = new ArrayList<>();
        for (Proxy p : report.candidates()) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("id", p.id());
            c.put("protocol", p.protocol().wireName());
            c.put("address", masked(p));
            c.put("labels", p.labels().values());
            c.put("expiresAt", p.expires() ? p.expiresAt().toString() : null);
            candidates.add(c);
        }
        m.put("candidates", candidates);
        m.put("drops", report.drops());
        m.put("bytesRead", report.bytesRead());
        m.put("durationMs", report.duration().toMillis());
        m.put("validated", validated);
        m.put("validationError", validationError);
        return m;
    }

    private static Map<String, Object> row(ValidationResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", r.proxy().id());
        m.put("protocol", r.proxy().protocol().wireName());
        m.put("address", masked(r.proxy()));
        m.put("verdict", r.verdict().wireName());
        m.put("passed", r instanceof ValidationResult.Accepted);
        String exitIp;
        switch (r) {
            case ValidationResult.Accepted a -> {
                m.put("reason", null);
                m.put("detail", a.marker());
                exitIp = a.exitIp();
            }
            case ValidationResult.Rejected x -> {
                m.put("reason", x.reason().wireName());
                m.put("detail", x.detail());
                exitIp = x.exitIp().orElse(null);
            }
        }
        m.put("latencyMs", r.latencyMillis());
        m.put("exitIp", exitIp == null ? null : AddressMask.mask(exitIp));
        return m;
    }

    private static String masked(Proxy p) {
        String h = AddressMask.mask(p.host());
        return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + p.port();
    }

    private static String outcome(FetchOutcome o) {
        return switch (o) {
            case FetchOutcome.Success s -> "success";
            case FetchOutcome.Error e -> "error";
            default -> "empty";
        };
    }
}
