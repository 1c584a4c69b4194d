package dev.proxypool.sdk.provider;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.sdk.credentials.SessionLogin;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * {@code session_gateway}: a rotating gateway sold as one {@code endpoint} and an account, where
 * each proxy is a session named in the login ({@code customer-USER-cc-DE-sessid-abc123}). Nothing
 * is read from the network: each fetch materialises {@code sessions} candidates per upstream, each
 * a distinct session id with the session lifetime as its TTL. A session keeps its id across
 * fetches until its lifetime ends, it is extracted or it fails ({@link ProviderEnvironment#retired}:
 * cooling or disabled by health, an operator's disable aside); then a fresh id takes its place (the
 * others are untouched), and since each answer is the upstream's whole stock
 * ({@link #answersWholeStock()}) the replaced session leaves the pool with that fetch.
 *
 * <p>Each session's login is kept in the environment's inline store under a derived ref whose
 * credentials are built from the account's ({@code credentialRef}) at each resolve, so the
 * account's password never leaves the credential store. Settings: {@code endpoint} (host:port),
 * {@code protocol} (http, https, socks5; http), {@code credentialRef} (required),
 * {@code preset} (brightdata, oxylabs, iproyal, soax), {@code usernameTemplate},
 * {@code passwordTemplate} ({@code {password}}), {@code lifetimeUnit} (seconds, minutes, suffixed;
 * without a preset), {@code sessions} (10), {@code sessionLifetime} (10m), {@code sessionIdLength}
 * (8), {@code sessionIdAlphabet} (a-z0-9), {@code maxConcurrency}, {@code weight},
 * {@code labels.<k>}. Label placeholders ({@code {country}}...) are filled from the upstream's
 * params; with a preset, a placeholder the vendor does not support is refused at load.
 */
final class SessionGatewayAdapter implements ProviderAdapter {

    static final String TYPE = "session_gateway";

    static final int MAX_SESSIONS = 10_000;
    private static final String DEFAULT_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
    private static final Pattern ALPHABET = Pattern.compile("[A-Za-z0-9]{2,128}");
    /** What a param may hold to go into a login: the vendors' separators ({@code -}, {@code _} in IPRoyal's) stay out. */
    private static final Pattern PARAM_VALUE = Pattern.compile("[A-Za-z0-9.+][A-Za-z0-9.+_]{0,63}");

    private final ProviderConfig config;
    private final ProviderEnvironment env;
    private final CandidateMapper mapper;
    private final String host;
    private final int port;
    private final CredentialRef account;
    private final Protocol defaultProtocol;
    private final LoginTemplate username;
    private final LoginTemplate password;
    private final SessionPreset preset;
    private final LifetimeUnit unit;
    private final int sessions;
    private final Duration lifetime;
    private final int idLength;
    private final String alphabet;
    private final SecureRandom random = new SecureRandom();
    private final ConcurrentHashMap<Book, List<Session>> books = new ConcurrentHashMap<>();

    private record Book(String upstream, Map<String, String> params) {}

    private record Session(String id, Instant ends, CredentialRef ref) {}

    SessionGatewayAdapter(ProviderConfig config, ProviderEnvironment env) {
        this.config = config;
        this.env = env;
        if (!config.fields().isEmpty()) {
            throw new IllegalArgumentException(config.keyName("fields") + ": type '" + TYPE + "' has no fields to map");
        }
        Settings settings = new Settings(
                config,
                Set.of(
                        "endpoint",
                        "preset",
                        "usernameTemplate",
                        "passwordTemplate",
                        "lifetimeUnit",
                        "sessions",
                        "sessionLifetime",
                        "sessionIdLength",
                        "sessionIdAlphabet"));
        for (String urlOnly : List.of("maxBytes", "timeout", "expiresAtFormat", "expiresAtZone")) {
            if (settings.get(urlOnly).isPresent()) {
                throw new IllegalArgumentException(settings.key(urlOnly) + " does not apply to type '" + TYPE
                        + "' (nothing is read from the network)");
            }
        }
        this.preset = SessionPreset.parse(
                settings.key("preset"), settings.get("preset").orElse(null));
        GatewayEndpoint endpoint = GatewayEndpoint.parse(settings);
        this.host = endpoint.host();
        this.port = endpoint.port();
        Protocol protocol = settings.protocolOrNull();
        if (protocol == Protocol.SOCKS4) {
            throw new IllegalArgumentException(
                    settings.key("protocol") + ": socks4 carries no password; use http, https or socks5");
        }
        this.account = settings.credentialRef();
        if (!account.isPresent()) {
            throw new IllegalArgumentException(settings.key("credentialRef") + " is required for type '" + TYPE
                    + "' (the account; its password stays in the credential store)");
        }
        if (preset != null && settings.get("lifetimeUnit").isPresent()) {
            throw new IllegalArgumentException(
                    settings.key("lifetimeUnit") + ": preset '" + preset.code() + "' sets the lifetime unit");
        }
        this.unit = preset != null
                ? preset.unit
                : LifetimeUnit.parse(
                        settings.key("lifetimeUnit"),
                        settings.get("lifetimeUnit").orElse("seconds"));
        String userText = settings.get("usernameTemplate")
                .orElseGet(() -> preset != null ? preset.usernameTemplate : settings.require("usernameTemplate"));
        String passText =
                settings.get("passwordTemplate").orElse(preset != null ? preset.passwordTemplate : "{password}");
        this.username = LoginTemplate.parse(settings.key("usernameTemplate"), userText);
        this.password = LoginTemplate.parse(settings.key("passwordTemplate"), passText);
        check(settings.key("usernameTemplate"), username);
        check(settings.key("passwordTemplate"), password);
        if (!username.placeholders().contains("session")
                && !password.placeholders().contains("session")) {
            throw new IllegalArgumentException(settings.key("usernameTemplate")
                    + ": has no {session} placeholder, so every session would be the same proxy");
        }
        this.sessions = settings.positiveInt("sessions", 10);
        if (sessions > MAX_SESSIONS) {
            throw new IllegalArgumentException(settings.key("sessions") + ": at most " + MAX_SESSIONS);
        }
        this.lifetime = settings.duration("sessionLifetime", Duration.ofMinutes(10));
        if (lifetime.toSeconds() < 1) {
            throw new IllegalArgumentException(settings.key("sessionLifetime") + ": at least 1s");
        }
        if (unit == LifetimeUnit.MINUTES && lifetime.toSeconds() % 60 != 0) {
            throw new IllegalArgumentException(settings.key("sessionLifetime") + ": '"
                    + settings.get("sessionLifetime").orElse("") + "' is not whole minutes, the unit of "
                    + (preset != null ? "preset '" + preset.code() + "'" : "lifetimeUnit minutes"));
        }
        this.idLength = settings.positiveInt("sessionIdLength", 8);
        if (idLength < 4 || idLength > 64) {
            throw new IllegalArgumentException(settings.key("sessionIdLength") + ": between 4 and 64");
        }
        this.alphabet = settings.get("sessionIdAlphabet").orElse(DEFAULT_ALPHABET);
        if (!ALPHABET.matcher(alphabet).matches() || alphabet.chars().distinct().count() < 2) {
            throw new IllegalArgumentException(
                    settings.key("sessionIdAlphabet") + ": 2 to 128 letters and digits, at least 2 different ones");
        }
        this.mapper = new CandidateMapper(config, settings, new FieldMapping(config));
        // http is what every vendor's gateway speaks when no protocol is set
        this.defaultProtocol = protocol == null ? Protocol.HTTP : protocol;
    }

    private void check(String key, LoginTemplate t) {
        for (String name : t.placeholders()) {
            if (name.equals("lifetime") && unit == LifetimeUnit.NONE) {
                throw new IllegalArgumentException(key + ": placeholder {lifetime} is not supported by "
                        + (preset != null
                                ? "preset '" + preset.code() + "' (its sessions end when idle)"
                                : "lifetimeUnit none"));
            }
            if (preset != null && !preset.supports(name)) {
                TreeSet<String> known = new TreeSet<>(SessionPreset.ALWAYS);
                known.addAll(preset.labels);
                if (preset.unit != LifetimeUnit.NONE) {
                    known.add("lifetime");
                }
                throw new IllegalArgumentException(key + ": placeholder {" + name + "} is not supported by preset '"
                        + preset.code() + "' (supported: " + String.join(", ", known) + ")");
            }
        }
    }

    @Override
    public FetchReport fetch(FetchContext ctx) {
        long start = env.ticker().read();
        Instant now = env.clock().instant();
        CandidateMapper.Bound bound;
        Map<String, String> values;
        try {
            bound = mapper.bind(ctx, now);
            values = values(ctx);
        } catch (FetchFailure f) {
            return FetchReport.failed(config.name(), ctx.upstream(), f.kind(), f.getMessage(), since(start));
        }
        List<Session> live = books.compute(new Book(ctx.upstream(), ctx.params()), (k, old) -> {
            List<Session> kept = new ArrayList<>(sessions);
            Set<String> ids = new HashSet<>();
            if (old != null) {
                for (Session s : old) {
                    if (now.isBefore(s.ends()) && kept.size() < sessions && !retired(s, ctx)) {
                        kept.add(s);
                        ids.add(s.id());
                    } else {
                        env.inline().forgetSession(s.ref());
                    }
                }
            }
            while (kept.size() < sessions) {
                String id = mint();
                if (ids.add(id)) {
                    kept.add(new Session(id, now.plus(lifetime), login(values, id)));
                }
            }
            return List.copyOf(kept);
        });
        ReportBuilder out = new ReportBuilder(config.name(), ctx.upstream(), bound);
        long n = 0;
        for (Session s : live) {
            Map<String, String> record = new HashMap<>();
            record.put("host", host.indexOf(':') >= 0 ? "[" + host + "]" : host);
            record.put("port", Integer.toString(port));
            record.put("protocol", protocolFor(ctx).wireName());
            record.put("credentialRef", s.ref().name());
            record.put("expiresAt", s.ends().toString());
            out.record(++n, RawRecord.ofMap(record));
        }
        return out.finish(0, since(start));
    }

    /** Every answer lists all the upstream's sessions: one no longer listed was replaced. */
    @Override
    public boolean answersWholeStock() {
        return true;
    }

    /** Whether the pool will not take the session back (extracted) or it failed: then a fresh id replaces it. */
    private boolean retired(Session s, FetchContext ctx) {
        try {
            return env.retired().test(new ProxyKey(protocolFor(ctx), host, port, s.ref()));
        } catch (RuntimeException e) {
            return false; // the pool cannot answer now: keep the session, the next fetch asks again
        }
    }

    private Protocol protocolFor(FetchContext ctx) {
        String p = ctx.params().get("protocol");
        if (p != null && !p.isBlank()) {
            return Protocol.parse(p); // bind() has checked it
        }
        return defaultProtocol;
    }

    /** The placeholder values of one upstream: its params, checked against the templates. */
    private Map<String, String> values(FetchContext ctx) throws FetchFailure {
        Map<String, String> v = new HashMap<>();
        v.put("lifetime", unit.render(lifetime));
        Set<String> needed = new TreeSet<>(username.placeholders());
        needed.addAll(password.placeholders());
        for (String name : needed) {
            if (name.equals("user") || name.equals("password") || name.equals("session") || name.equals("lifetime")) {
                continue;
            }
            String value = ctx.params().get(name);
            if (value == null || value.isBlank()) {
                throw new FetchFailure(
                        FetchOutcome.ErrorKind.TEMPLATE,
                        "upstreams[" + ctx.upstream() + "].params." + name + " is required by "
                                + config.keyName("usernameTemplate") + " ({" + name + "})");
            }
            if (!PARAM_VALUE.matcher(value.trim()).matches()) {
                throw new FetchFailure(
                        FetchOutcome.ErrorKind.TEMPLATE,
                        "upstreams[" + ctx.upstream() + "].params." + name
                                + ": letters, digits, '.', '+' and '_' only (it goes into the gateway login)");
            }
            v.put(name, value.trim());
        }
        return v;
    }

    private CredentialRef login(Map<String, String> values, String id) {
        Map<String, String> v = new HashMap<>(values);
        v.put("session", id);
        SessionLogin login = new SessionLogin(account, username.fill(v), password.fill(v));
        return env.inline().putSession(config.name(), login, host, port);
    }

    private String mint() {
        char[] c = new char[idLength];
        for (int i = 0; i < idLength; i++) {
            c[i] = alphabet.charAt(random.nextInt(alphabet.length()));
        }
        return new String(c);
    }

    private Duration since(long start) {
        return Duration.ofNanos(Math.max(0, env.ticker().read() - start));
    }
}
