package dev.proxypool.server.access;

import dev.proxypool.core.security.SecretHash;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.server.api.BearerToken;
import dev.proxypool.server.gateway.ProxyAuthenticator;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;

/**
 * The gateway's client check (docs/design.md#security, X1): {@code Proxy-Authorization: Basic} against the
 * configured clients' PBKDF2 {@code secretHash} (or a dev-only plain {@code secret}), with the
 * username options of {@link UsernameParser}; and {@code Authorization: Bearer} against client
 * tokens for the REST API.
 *
 * <h2>Cost and timing</h2>
 * PBKDF2 (600k iterations: 165–380 ms of one core on the 2-core test machine) runs once per
 * (client, secret): a success is remembered in a {@link VerifiedCache} keyed by an HMAC under a
 * per-process random key, so later requests cost one HMAC (about 1–2 µs for the whole check).
 * Failures are never cached. An unknown user, a malformed username and a
 * known user with a wrong secret all run PBKDF2 against a hash of the same iteration count (a
 * dummy for the first two), so response time does not reveal which names exist. Plain dev
 * secrets are compared by digest in constant time but get no such parity.
 *
 * <h2>Denial of service</h2>
 * Each failed attempt still costs one PBKDF2. At most {@link Settings#maxConcurrentVerifications}
 * run at once (default 2 × cores); an attempt that cannot start within
 * {@link Settings#verifyWait} is answered 407 without hashing, so a flood of bad passwords burns at
 * most that many cores while clients already in the cache are unaffected. Concurrent attempts with
 * identical credentials share one computation (a burst of connections from one freshly started
 * client costs one PBKDF2, not one per connection).
 *
 * <h2>Anonymous access ({@link Mode})</h2>
 * With no client that has a gateway secret, the gateway is open as {@value #ANONYMOUS} when
 * {@code security.allowAnonymous} is true or its listener is loopback-only, and closed (every
 * request 407) otherwise. With clients, credentials are required; {@code allowAnonymous: true}
 * additionally admits requests that carry no {@code Proxy-Authorization} as {@value #ANONYMOUS}.
 * Wrong credentials are never downgraded to anonymous.
 *
 * <p>Immutable configuration, thread-safe; build a new instance when the client list changes.
 */
public final class ClientAuthenticator implements ProxyAuthenticator {

    /** The client name of unauthenticated requests where anonymous access is on. */
    public static final String ANONYMOUS = "anonymous";

    private static final int MAX_HEADER = 4096;

    /** How requests without valid credentials are treated. */
    public enum Mode {
        /** No clients, anonymous allowed: everyone is {@value ClientAuthenticator#ANONYMOUS}. */
        ANONYMOUS_ONLY,
        /** Clients configured: valid credentials required. */
        CREDENTIALS_REQUIRED,
        /** Clients configured and {@code allowAnonymous}: no header → anonymous, a header must be valid. */
        CREDENTIALS_OR_ANONYMOUS,
        /** No clients and anonymous not allowed: every request 407 (fail closed). */
        CLOSED
    }

    /**
     * Tuning knobs.
     *
     * @param cacheEntries               verified (client, secret) pairs remembered, default 10,000
     * @param maxConcurrentVerifications PBKDF2 computations at once, default 2 × cores
     * @param verifyWait                 how long an attempt may wait for a slot before 407, default 200 ms
     */
    public record Settings(int cacheEntries, int maxConcurrentVerifications, Duration verifyWait) {
        public static final Settings DEFAULTS =
                new Settings(10_000, 2 * Runtime.getRuntime().availableProcessors(), Duration.ofMillis(200));

        public Settings {
            if (cacheEntries < 1) {
                throw new IllegalArgumentException("cacheEntries must be at least 1, got " + cacheEntries);
            }
            if (maxConcurrentVerifications < 1) {
                throw new IllegalArgumentException(
                        "maxConcurrentVerifications must be at least 1, got " + maxConcurrentVerifications);
            }
            if (verifyWait == null || verifyWait.isNegative()) {
                throw new IllegalArgumentException("verifyWait must be zero or positive, got " + verifyWait);
            }
        }
    }

    /** A client's gateway secret: a PBKDF2 hash, or the SHA-256 of a dev-only plain secret. */
    private sealed interface Credential permits Hashed, Plain {}

    private record Hashed(String stored) implements Credential {}

    private record Plain(byte[] digest) implements Credential {}

    private record Token(String client, byte[] digest) {}

    private final Mode mode;
    private final Map<String, Credential> credentials;
    private final List<Token> tokens;
    private final UsernameParser parser;
    /** PBKDF2 hash of a random secret at the highest configured iteration count; null without hashed clients. */
    private final String dummyHash;

    private final byte[] dummyDigest;
    private final VerifiedCache cache;
    private final Semaphore slots;
    private final long verifyWaitNanos;
    private final ConcurrentHashMap<VerifiedCache.Key, CompletableFuture<Boolean>> inFlight = new ConcurrentHashMap<>();
    private final BiPredicate<char[], String> pbkdf2;

    private ClientAuthenticator(
            List<ProxyPoolConfig.Client> clients,
            boolean allowAnonymous,
            boolean loopbackOnly,
            Settings settings,
            BiPredicate<char[], String> pbkdf2) {
        Map<String, Credential> creds = new HashMap<>();
        List<Token> toks = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int maxIterations = 0;
        for (int i = 0; i < clients.size(); i++) {
            ProxyPoolConfig.Client c = clients.get(i);
            String key = "clients[" + i + "]";
            if (!UsernameParser.validName(c.name())) {
                throw new IllegalArgumentException(key + ".name: '" + c.name() + "' is not a valid client name");
            }
            if (!seen.add(c.name())) {
                throw new IllegalArgumentException(key + ".name: '" + c.name() + "' is defined twice");
            }
            if (c.secretHash().isPresent() && c.plainSecret().isPresent()) {
                throw new IllegalArgumentException(key + ".secret: give either secretHash or secret, not both");
            }
            if (c.secretHash().isPresent()) {
                String stored = c.secretHash().get();
                SecretHash.requireValid(stored, key + ".secretHash");
                maxIterations = Math.max(maxIterations, Integer.parseInt(stored.split("\\$", -1)[1]));
                creds.put(c.name(), new Hashed(stored));
            } else if (c.plainSecret().isPresent() && !c.plainSecret().get().isEmpty()) {
                creds.put(c.name(), new Plain(sha256Wiping(c.plainSecret().get().revealChars())));
            }
            if (c.token().isPresent() && !c.token().get().isEmpty()) {
                toks.add(new Token(c.name(), sha256Wiping(c.token().get().revealChars())));
            }
        }
        if (creds.isEmpty()) {
            mode = allowAnonymous || loopbackOnly ? Mode.ANONYMOUS_ONLY : Mode.CLOSED;
        } else {
            mode = allowAnonymous ? Mode.CREDENTIALS_OR_ANONYMOUS : Mode.CREDENTIALS_REQUIRED;
            if (allowAnonymous && creds.containsKey(ANONYMOUS)) {
                throw new IllegalArgumentException(
                        "clients[].name: '" + ANONYMOUS + "' is reserved while security.allowAnonymous is true");
            }
        }
        this.credentials = Map.copyOf(creds);
        this.tokens = List.copyOf(toks);
        this.parser =
                mode == Mode.ANONYMOUS_ONLY ? UsernameParser.anyBase() : UsernameParser.forClients(creds.keySet());
        char[] random = randomSecret();
        this.dummyHash = maxIterations > 0 ? SecretHash.hash(random.clone(), maxIterations) : null;
        this.dummyDigest = sha256Wiping(random);
        this.cache = new VerifiedCache(settings.cacheEntries());
        this.slots = new Semaphore(settings.maxConcurrentVerifications());
        this.verifyWaitNanos = settings.verifyWait().toNanos();
        this.pbkdf2 = pbkdf2;
    }

    /**
     * The authenticator for a configuration.
     *
     * @param loopbackOnly true when the gateway listener accepts loopback connections only
     * @throws IllegalArgumentException naming the client key when a client entry is invalid
     */
    public static ClientAuthenticator create(
            List<ProxyPoolConfig.Client> clients, ProxyPoolConfig.Security security, boolean loopbackOnly) {
        return create(clients, security, loopbackOnly, Settings.DEFAULTS);
    }

    public static ClientAuthenticator create(
            List<ProxyPoolConfig.Client> clients,
            ProxyPoolConfig.Security security,
            boolean loopbackOnly,
            Settings settings) {
        return new ClientAuthenticator(clients, security.allowAnonymous(), loopbackOnly, settings, SecretHash::verify);
    }

    /** Test hook: a PBKDF2 function that can count its calls. */
    static ClientAuthenticator create(
            List<ProxyPoolConfig.Client> clients,
            boolean allowAnonymous,
            boolean loopbackOnly,
            Settings settings,
            BiPredicate<char[], String> pbkdf2) {
        return new ClientAuthenticator(clients, allowAnonymous, loopbackOnly, settings, pbkdf2);
    }

    public Mode mode() {
        return mode;
    }

    /** {@link ProxyAuthenticator}: the client name, or {@code null} for a 407. */
    @Override
    public String authenticate(String proxyAuthorization) {
        AuthenticatedClient c = check(proxyAuthorization, true);
        return c == null ? null : c.name();
    }

    /**
     * {@link ProxyAuthenticator}: a remembered verification, a plain (SHA-256) secret, anonymous
     * access or a malformed header are answered here; a PBKDF2 hash still to compute, for a
     * known client or the dummy of an unknown one, is {@link #NEEDS_THREAD}.
     */
    @Override
    public String tryAuthenticate(String proxyAuthorization) {
        AuthenticatedClient c = check(proxyAuthorization, false);
        return c == NEEDS_SLOW_CHECK ? NEEDS_THREAD : c == null ? null : c.name();
    }

    /** {@link #check} with {@code mayWait} false: the answer needs a hash computed on a thread that may wait. */
    private static final AuthenticatedClient NEEDS_SLOW_CHECK =
            new AuthenticatedClient(ANONYMOUS, UsernameOptions.none(ANONYMOUS));

    /**
     * The client and its username options, or empty for a 407 (missing, malformed or wrong
     * credentials; unknown user; verification capacity saturated).
     */
    public Optional<AuthenticatedClient> authenticateClient(String proxyAuthorization) {
        return Optional.ofNullable(check(proxyAuthorization, true));
    }

    /**
     * @param mayWait false on an event loop: a hash to compute returns {@link #NEEDS_SLOW_CHECK}
     *                instead (the secret is wiped either way; the caller checks again on a thread)
     */
    private AuthenticatedClient check(String header, boolean mayWait) {
        if (mode == Mode.CLOSED) {
            return null;
        }
        if (header == null || header.isBlank()) {
            return mode == Mode.CREDENTIALS_REQUIRED
                    ? null
                    : new AuthenticatedClient(ANONYMOUS, UsernameOptions.none(ANONYMOUS));
        }
        BasicCredentials basic = BasicCredentials.parse(header, MAX_HEADER);
        if (basic == null) {
            return null;
        }
        try {
            UsernameParser.Result parsed = parser.parse(basic.username());
            if (mode == Mode.ANONYMOUS_ONLY) {
                return parsed instanceof UsernameParser.Parsed(UsernameOptions o)
                        ? new AuthenticatedClient(ANONYMOUS, o.withClient(ANONYMOUS))
                        : null;
            }
            if (parsed instanceof UsernameParser.Parsed(UsernameOptions o)) {
                Boolean ok = verify(o.client(), credentials.get(o.client()), basic.secret(), mayWait);
                return ok == null ? NEEDS_SLOW_CHECK : ok ? new AuthenticatedClient(o.client(), o) : null;
            }
            return verify("?" + basic.username(), null, basic.secret(), mayWait) == null ? NEEDS_SLOW_CHECK : null;
        } finally {
            Arrays.fill(basic.secret(), '\0');
        }
    }

    /**
     * Checks {@code secret}; {@code credential == null} runs the same work against a dummy and fails.
     *
     * @return whether it matches, or {@code null} when {@code mayWait} is false and a hash is to compute
     */
    private Boolean verify(String name, Credential credential, char[] secret, boolean mayWait) {
        if (credential instanceof Plain(byte[] digest)) {
            return MessageDigest.isEqual(sha256(secret), digest);
        }
        if (dummyHash == null) {
            MessageDigest.isEqual(sha256(secret), dummyDigest);
            return false;
        }
        VerifiedCache.Key key = cache.key(name, secret);
        if (credential != null && cache.contains(key, name)) {
            return true;
        }
        if (!mayWait) {
            return null;
        }
        String stored = credential instanceof Hashed(String s) ? s : dummyHash;
        return slowVerify(key, name, stored, credential != null, secret);
    }

    private boolean slowVerify(VerifiedCache.Key key, String name, String stored, boolean known, char[] secret) {
        CompletableFuture<Boolean> mine = new CompletableFuture<>();
        CompletableFuture<Boolean> running = inFlight.putIfAbsent(key, mine);
        if (running != null) {
            return running.join();
        }
        boolean ok = false;
        try {
            if (!acquireSlot()) {
                return false;
            }
            try {
                ok = pbkdf2.test(secret, stored) && known;
            } finally {
                slots.release();
            }
            if (ok) {
                cache.put(key, name);
            }
            return ok;
        } finally {
            mine.complete(ok);
            inFlight.remove(key, mine);
        }
    }

    private boolean acquireSlot() {
        try {
            return verifyWaitNanos == 0 ? slots.tryAcquire() : slots.tryAcquire(verifyWaitNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The client whose {@code token} matches {@code Authorization: Bearer <token>} (read by
     * {@link BearerToken#parse}), or empty. Every
     * configured token is compared (by SHA-256 digest, constant time) whatever matches first, so
     * the time taken says nothing about which token or prefix was close.
     */
    public Optional<String> clientForBearer(String authorization) {
        Optional<String> token = BearerToken.parse(authorization);
        if (token.isEmpty()) {
            return Optional.empty();
        }
        byte[] digest = sha256Wiping(token.get().toCharArray());
        String found = null;
        for (Token t : tokens) {
            if (MessageDigest.isEqual(digest, t.digest()) & found == null) {
                found = t.client();
            }
        }
        return Optional.ofNullable(found);
    }

    /** Verified credentials currently remembered (tests, metrics). */
    int cachedVerifications() {
        return cache.size();
    }

    private static char[] randomSecret() {
        byte[] b = new byte[24];
        new SecureRandom().nextBytes(b);
        return Base64.getEncoder().encodeToString(b).toCharArray();
    }

    /** SHA-256 of the UTF-8 of {@code chars}, then wipes {@code chars}. */
    private static byte[] sha256Wiping(char[] chars) {
        try {
            return sha256(chars);
        } finally {
            Arrays.fill(chars, '\0');
        }
    }

    private static byte[] sha256(char[] chars) {
        ByteBuffer bytes = StandardCharsets.UTF_8.encode(CharBuffer.wrap(chars));
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(bytes);
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        } finally {
            if (bytes.hasArray()) {
                Arrays.fill(bytes.array(), (byte) 0);
            }
        }
    }
}
