package dev.proxypool.server.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.security.SecretHash;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.credentials.Secret;
import dev.proxypool.server.gateway.ProxyAuthenticator;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.Pace;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Tag("slow")
class ClientAuthenticatorTest {

    /** Low iteration count keeps most tests fast; the measured tests use realistic counts. */
    private static final int FAST = 2_000;

    private static final String ALICE_HASH = SecretHash.hash("alice-pw".toCharArray(), FAST);
    private static final String TEAM_HASH = SecretHash.hash("team-pw".toCharArray(), FAST);
    private static final String TOKEN_A = "tok-alice-0123456789abcdef";
    private static final String TOKEN_B = "tok-bob-0123456789abcdef00";

    private static final ProxyPoolConfig.Security NO_ANON = ProxyPoolConfig.Security.DEFAULTS;
    private static final ProxyPoolConfig.Security ANON =
            new ProxyPoolConfig.Security(false, List.of(443), List.of(), true);

    private final AtomicInteger pbkdf2Calls = new AtomicInteger();
    private final List<String> pbkdf2Hashes = new ArrayList<>();

    private boolean countingVerify(char[] secret, String stored) {
        pbkdf2Calls.incrementAndGet();
        synchronized (pbkdf2Hashes) {
            pbkdf2Hashes.add(stored);
        }
        return SecretHash.verify(secret, stored);
    }

    static ProxyPoolConfig.Client hashed(String name, String hash) {
        return new ProxyPoolConfig.Client(name, Optional.of(hash), Optional.empty(), Optional.empty(), 0, 0);
    }

    static ProxyPoolConfig.Client plain(String name, String secret) {
        return new ProxyPoolConfig.Client(
                name, Optional.empty(), Optional.of(Secret.of(secret)), Optional.empty(), 0, 0);
    }

    static ProxyPoolConfig.Client tokenOnly(String name, String token) {
        return new ProxyPoolConfig.Client(
                name, Optional.empty(), Optional.empty(), Optional.of(Secret.of(token)), 0, 0);
    }

    static String basic(String user, String secret) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + secret).getBytes(StandardCharsets.UTF_8));
    }

    private List<ProxyPoolConfig.Client> clients() {
        return List.of(
                hashed("alice", ALICE_HASH),
                hashed("team-a", TEAM_HASH),
                plain("dev", "dev-pw"),
                tokenOnly("bob", TOKEN_B),
                new ProxyPoolConfig.Client(
                        "carol", Optional.empty(), Optional.empty(), Optional.of(Secret.of(TOKEN_A)), 0, 0));
    }

    private ClientAuthenticator counting(List<ProxyPoolConfig.Client> clients, ClientAuthenticator.Settings s) {
        return ClientAuthenticator.create(clients, false, false, s, this::countingVerify);
    }

    private ClientAuthenticator authenticator() {
        return counting(clients(), ClientAuthenticator.Settings.DEFAULTS);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            nullValues = "NULL",
            value = {
                "alice:alice-pw                  | alice",
                "team-a:team-pw                  | team-a",
                "dev:dev-pw                      | dev",
                "alice:wrong                     | NULL",
                "alice:                          | NULL",
                "alice:alice-pw2                 | NULL",
                "team-a:alice-pw                 | NULL",
                "dev:wrong                       | NULL",
                "dev:dev-pw-longer               | NULL",
                "mallory:alice-pw                | NULL",
                "bob:anything                    | NULL",
                "Alice:alice-pw                  | NULL",
                "alice-session-s1:alice-pw       | alice",
                "alice-sesion-s1:alice-pw        | NULL",
                "alice-session-s$1:alice-pw      | NULL",
                "alice-session-s1-country:alice-pw | NULL",
            })
    void basicCredentialsTable(String userColonSecret, String expected) {
        int colon = userColonSecret.indexOf(':');
        String header = basic(userColonSecret.substring(0, colon), userColonSecret.substring(colon + 1));
        assertEquals(expected, authenticator().authenticate(header));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            nullValues = "NULL",
            value = {
                "NULL",
                "''",
                "Basic",
                "Basic ",
                "Basic !!!notbase64",
                "Bearer abc",
                "Digest username=alice",
                "Basic YWxpY2U=", // "alice" without a colon
                "Basic OmFsaWNlLXB3", // ":alice-pw", empty user
                "Basic /w==", // invalid UTF-8
            })
    void malformedHeadersAreRefused(String header) {
        ClientAuthenticator a = authenticator();
        assertNull(a.authenticate(header));
        assertEquals(0, pbkdf2Calls.get(), "a header without a username never reaches PBKDF2");
    }

    @Test
    void schemeIsCaseInsensitiveAndBase64MayBePadded() {
        String enc = Base64.getEncoder().encodeToString("alice:alice-pw".getBytes(StandardCharsets.UTF_8));
        assertEquals("alice", authenticator().authenticate("basic " + enc));
        assertEquals("alice", authenticator().authenticate("BASIC  " + enc + " "));
    }

    @Test
    void secretsMayContainColonsAndUnicode() {
        ClientAuthenticator a = counting(
                List.of(hashed("u", SecretHash.hash("p:ä:ß".toCharArray(), FAST))),
                ClientAuthenticator.Settings.DEFAULTS);
        assertEquals("u", a.authenticate(basic("u", "p:ä:ß")));
        assertNull(a.authenticate(basic("u", "p:a:ß")));
    }

    @Test
    void usernameOptionsComeBackWithTheClient() {
        AuthenticatedClient c = authenticator()
                .authenticateClient(basic("team-a-session-abc123-country-us-type-residential", "team-pw"))
                .orElseThrow();
        assertEquals("team-a", c.name());
        assertEquals(Optional.of("abc123"), c.options().sessionId());
        assertEquals(
                LabelSelector.parse("country=US,type=residential"), c.options().labels());
        assertEquals(
                UsernameOptions.none("alice"),
                authenticator()
                        .authenticateClient(basic("alice", "alice-pw"))
                        .orElseThrow()
                        .options());
    }

    @Test
    void aCacheHitSkipsPbkdf2AndOptionsDoNotMatter() {
        ClientAuthenticator a = authenticator();
        assertEquals("alice", a.authenticate(basic("alice", "alice-pw")));
        assertEquals(1, pbkdf2Calls.get());
        for (int i = 0; i < 50; i++) {
            assertEquals("alice", a.authenticate(basic("alice-session-s" + i + "-country-us", "alice-pw")));
        }
        assertEquals(1, pbkdf2Calls.get());
        assertEquals(1, a.cachedVerifications());
    }

    @Test
    void onALoopOnlyWhatCostsNoHashIsAnsweredAndEveryHashIsLeftToAThread() {
        ClientAuthenticator a = authenticator();
        String alice = basic("alice", "alice-pw");
        assertSame(ProxyAuthenticator.NEEDS_THREAD, a.tryAuthenticate(alice), "not verified yet: a hash to compute");
        assertSame(
                ProxyAuthenticator.NEEDS_THREAD,
                a.tryAuthenticate(basic("alice", "wrong")),
                "a wrong secret costs the hash too (off the loop), never a quick no");
        assertSame(
                ProxyAuthenticator.NEEDS_THREAD,
                a.tryAuthenticate(basic("mallory", "x")),
                "an unknown user costs the dummy's hash, as a known one does");
        assertEquals(0, pbkdf2Calls.get(), "the loop computed nothing");
        assertEquals("alice", a.authenticate(alice));
        assertEquals(1, pbkdf2Calls.get());
        assertEquals("alice", a.tryAuthenticate(alice), "remembered: answered on the loop");
        assertEquals("alice", a.tryAuthenticate(basic("alice-session-s9", "alice-pw")));
        assertSame(ProxyAuthenticator.NEEDS_THREAD, a.tryAuthenticate(basic("alice", "alice-pw2")));
        assertEquals("dev", a.tryAuthenticate(basic("dev", "dev-pw")), "a plain secret is one SHA-256");
        assertNull(a.tryAuthenticate(basic("dev", "nope")));
        assertNull(a.tryAuthenticate(null), "no credentials: refused without a hash");
        assertNull(a.tryAuthenticate("Basic !!!"), "malformed: refused without a hash");
        assertEquals(1, pbkdf2Calls.get());
    }

    @Test
    void wrongCredentialsAreNeverCachedAsGood() {
        ClientAuthenticator a = authenticator();
        for (int i = 0; i < 5; i++) {
            assertNull(a.authenticate(basic("alice", "wrong")));
        }
        assertEquals(5, pbkdf2Calls.get(), "every wrong attempt pays PBKDF2 again");
        assertEquals(0, a.cachedVerifications());
        assertEquals("alice", a.authenticate(basic("alice", "alice-pw")));
        assertNull(a.authenticate(basic("alice", "wrong")));
        assertNull(a.authenticate(basic("team-a", "alice-pw")), "alice's cached secret is no key for team-a");
        assertEquals(1, a.cachedVerifications());
    }

    @Test
    void unknownAndMalformedUsersCostOnePbkdf2AtTheConfiguredIterationCount() {
        String strong = SecretHash.hash("s".toCharArray(), 3_000);
        ClientAuthenticator a = counting(
                List.of(hashed("alice", ALICE_HASH), hashed("zed", strong)), ClientAuthenticator.Settings.DEFAULTS);
        pbkdf2Hashes.clear();
        assertNull(a.authenticate(basic("alice", "wrong")));
        assertNull(a.authenticate(basic("mallory", "wrong")));
        assertNull(a.authenticate(basic("alice-bogus-x", "alice-pw")));
        assertNull(a.authenticate(basic("alice-session-x-", "alice-pw")));
        assertEquals(4, pbkdf2Calls.get());
        assertEquals(iterations(ALICE_HASH), iterations(pbkdf2Hashes.get(0)));
        for (String dummy : pbkdf2Hashes.subList(1, 4)) {
            assertEquals(3_000, iterations(dummy), "the dummy uses the highest configured iteration count");
        }
    }

    private static int iterations(String stored) {
        return Integer.parseInt(stored.split("\\$")[1]);
    }

    @Test
    void missingCredentialsNeedNoPbkdf2() {
        ClientAuthenticator a = authenticator();
        assertNull(a.authenticate(null));
        assertEquals(0, pbkdf2Calls.get());
    }

    @Test
    void firstVerificationVersusCachedVerificationAtProductionCost() {
        String hash = SecretHash.hash("s3cret".toCharArray()); // 600k iterations
        ClientAuthenticator a = ClientAuthenticator.create(List.of(hashed("alice", hash)), NO_ANON, false);
        String header = basic("alice-session-x", "s3cret");
        long t0 = System.nanoTime();
        assertEquals("alice", a.authenticate(header));
        long first = System.nanoTime() - t0;
        long best = Long.MAX_VALUE;
        for (int batch = 0; batch < 40; batch++) { // best batch mean: robust to a busy machine and JIT warm-up
            long t = System.nanoTime();
            for (int i = 0; i < 2_000; i++) {
                assertEquals("alice", a.authenticate(header));
            }
            best = Math.min(best, (System.nanoTime() - t) / 2_000);
        }
        System.out.printf(
                "PBKDF2 600k: first verify %.1f ms; cached verify %.2f µs (best batch mean)%n",
                first / 1e6, best / 1e3);
        assertTrue(first > 1_000 * best, "first " + first + " ns vs cached " + best + " ns");
    }

    @Test
    void unknownUserTakesAsLongAsKnownUserWithWrongPassword() {
        String hash = SecretHash.hash("s3cret".toCharArray(), 60_000);
        ClientAuthenticator a = ClientAuthenticator.create(List.of(hashed("alice", hash)), NO_ANON, false);
        String known = basic("alice", "wrong-password");
        String unknown = basic("mallory", "wrong-password");
        a.authenticate(known);
        a.authenticate(unknown); // warm-up
        int rounds = 15;
        long[] k = new long[rounds];
        long[] u = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            long s = System.nanoTime();
            assertNull(a.authenticate(known));
            k[i] = System.nanoTime() - s;
            s = System.nanoTime();
            assertNull(a.authenticate(unknown));
            u[i] = System.nanoTime() - s;
        }
        double mk = median(k);
        double mu = median(u);
        System.out.printf(
                "wrong password median %.2f ms, unknown user median %.2f ms (ratio %.2f)%n",
                mk / 1e6, mu / 1e6, mu / mk);
        assertTrue(mu / mk > 0.4 && mu / mk < 2.5, "known " + mk + " ns, unknown " + mu + " ns");
    }

    private static double median(long[] xs) {
        long[] c = xs.clone();
        java.util.Arrays.sort(c);
        return c[c.length / 2];
    }

    @Test
    void saturatedVerificationFailsFastWithoutHashing() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        BiPredicate<char[], String> slow = (secret, stored) -> {
            calls.incrementAndGet();
            inside.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return SecretHash.verify(secret, stored);
        };
        ClientAuthenticator a = ClientAuthenticator.create(
                List.of(hashed("alice", ALICE_HASH), hashed("team-a", TEAM_HASH)),
                false,
                false,
                new ClientAuthenticator.Settings(100, 1, Duration.ZERO),
                slow);
        CompletableFuture<String> busy =
                CompletableFuture.supplyAsync(() -> a.authenticate(basic("alice", "alice-pw")));
        assertTrue(inside.await(10, TimeUnit.SECONDS));
        assertNull(a.authenticate(basic("team-a", "team-pw")), "no slot: 407 at once");
        assertNull(a.authenticate(basic("mallory", "x")));
        assertEquals(1, calls.get());
        release.countDown();
        assertEquals("alice", busy.get(10, TimeUnit.SECONDS));
        assertEquals("team-a", a.authenticate(basic("team-a", "team-pw")));
        assertEquals("alice", a.authenticate(basic("alice", "alice-pw")));
        assertEquals(2, calls.get());
    }

    @Test
    void aBurstOfIdenticalCredentialsSharesOnePbkdf2() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        BiPredicate<char[], String> gated = (secret, stored) -> {
            calls.incrementAndGet();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return SecretHash.verify(secret, stored);
        };
        ClientAuthenticator a = ClientAuthenticator.create(
                List.of(hashed("alice", ALICE_HASH)),
                false,
                false,
                new ClientAuthenticator.Settings(100, 1, Duration.ZERO),
                gated);
        List<CompletableFuture<String>> burst = new ArrayList<>();
        try (var exec = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 50; i++) {
                String user = "alice-session-s" + i;
                burst.add(CompletableFuture.supplyAsync(() -> a.authenticate(basic(user, "alice-pw")), exec));
            }
            Await.atMost(Duration.ofSeconds(10)).until("the leader's hash check to start", calls::get, n -> n > 0);
            Pace.sleep(
                    Duration.ofMillis(200)); // let the other 49 queue behind the leader (timing only widens the window)
            release.countDown();
            for (CompletableFuture<String> f : burst) {
                assertEquals("alice", f.get(10, TimeUnit.SECONDS));
            }
        }
        assertEquals(1, calls.get());
    }

    @Test
    void concurrentMixedTrafficNeverAdmitsAWrongSecret() throws Exception {
        ClientAuthenticator a = authenticator();
        AtomicInteger wrongAdmitted = new AtomicInteger();
        AtomicInteger rightRefused = new AtomicInteger();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int id = t;
            ts.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 40; i++) {
                    boolean good = (i + id) % 2 == 0;
                    String got = a.authenticate(basic("alice-session-t" + id, good ? "alice-pw" : "alice-pw" + i));
                    if (!good && got != null) {
                        wrongAdmitted.incrementAndGet();
                    }
                    if (good && got == null) {
                        rightRefused.incrementAndGet();
                    }
                }
            }));
        }
        for (Thread t : ts) {
            t.join();
        }
        assertEquals(0, wrongAdmitted.get());
        assertEquals(1, a.cachedVerifications());
        // With the default wait a right secret may only be refused while the slots were saturated.
        assertTrue(rightRefused.get() <= 8, "right secrets refused: " + rightRefused.get());
    }

    @Test
    void cacheIsBounded() {
        List<ProxyPoolConfig.Client> many = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            many.add(plain("p" + i, "pw" + i));
        }
        many.add(hashed("alice", ALICE_HASH));
        many.add(hashed("team-a", TEAM_HASH));
        ClientAuthenticator a = counting(many, new ClientAuthenticator.Settings(1, 2, Duration.ofSeconds(1)));
        assertEquals("alice", a.authenticate(basic("alice", "alice-pw")));
        assertEquals("team-a", a.authenticate(basic("team-a", "team-pw")));
        assertEquals(1, a.cachedVerifications());
        assertEquals("alice", a.authenticate(basic("alice", "alice-pw")));
        assertEquals(3, pbkdf2Calls.get(), "alice was evicted and verified again");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            nullValues = "NULL",
            value = {
                "Bearer tok-alice-0123456789abcdef  | carol",
                "bearer tok-alice-0123456789abcdef  | carol",
                "Bearer  tok-bob-0123456789abcdef00 | bob",
                "Bearer tok-alice-0123456789abcdeF  | NULL",
                "Bearer tok-alice-0123456789abcde   | NULL",
                "Bearer tok-alice-0123456789abcdef0 | NULL",
                "Bearer                             | NULL",
                "Basic tok-alice-0123456789abcdef   | NULL",
                "tok-alice-0123456789abcdef         | NULL",
                "NULL                               | NULL",
            })
    void bearerTokens(String header, String expected) {
        assertEquals(Optional.ofNullable(expected), authenticator().clientForBearer(header));
    }

    @Test
    void anonymousModes() {
        ClientAuthenticator open = ClientAuthenticator.create(List.of(tokenOnly("bob", TOKEN_B)), NO_ANON, true);
        assertEquals(ClientAuthenticator.Mode.ANONYMOUS_ONLY, open.mode());
        assertEquals("anonymous", open.authenticate(null));
        AuthenticatedClient s = open.authenticateClient(basic("whoever-session-s9-country-de", "ignored"))
                .orElseThrow();
        assertEquals("anonymous", s.name());
        assertEquals("anonymous", s.options().client());
        assertEquals(Optional.of("s9"), s.options().sessionId());
        assertNull(
                open.authenticate(basic("whoever-session-s9-bogus-x", "ignored")),
                "malformed options: 407, not a partial parse");
        assertNull(open.authenticate("Bearer xyz"));
        assertEquals(Optional.of("bob"), open.clientForBearer("Bearer " + TOKEN_B));

        ClientAuthenticator openByConfig = ClientAuthenticator.create(List.of(), ANON, false);
        assertEquals(ClientAuthenticator.Mode.ANONYMOUS_ONLY, openByConfig.mode());
        assertEquals("anonymous", openByConfig.authenticate(null));

        ClientAuthenticator closed = ClientAuthenticator.create(List.of(), NO_ANON, false);
        assertEquals(ClientAuthenticator.Mode.CLOSED, closed.mode());
        assertNull(closed.authenticate(null));
        assertNull(closed.authenticate(basic("anonymous", "x")));

        ClientAuthenticator required = ClientAuthenticator.create(List.of(hashed("alice", ALICE_HASH)), NO_ANON, true);
        assertEquals(ClientAuthenticator.Mode.CREDENTIALS_REQUIRED, required.mode());
        assertNull(required.authenticate(null), "loopback-only does not open a gateway that has clients");

        ClientAuthenticator either = ClientAuthenticator.create(List.of(hashed("alice", ALICE_HASH)), ANON, false);
        assertEquals(ClientAuthenticator.Mode.CREDENTIALS_OR_ANONYMOUS, either.mode());
        assertEquals("anonymous", either.authenticate(null));
        assertEquals("alice", either.authenticate(basic("alice", "alice-pw")));
        assertNull(either.authenticate(basic("alice", "wrong")), "wrong credentials are never downgraded to anonymous");
    }

    @Test
    void badClientEntriesAreRefusedNamingTheKey() {
        ProxyPoolConfig.Client both = new ProxyPoolConfig.Client(
                "x", Optional.of(ALICE_HASH), Optional.of(Secret.of("p")), Optional.empty(), 0, 0);
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> ClientAuthenticator.create(List.of(hashed("a", ALICE_HASH), both), NO_ANON, false))
                .getMessage()
                .startsWith("clients[1]"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> ClientAuthenticator.create(List.of(hashed("a", "md5$abc")), NO_ANON, false))
                .getMessage()
                .startsWith("clients[0].secretHash"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> ClientAuthenticator.create(
                                List.of(hashed("a", ALICE_HASH), plain("a", "p")), NO_ANON, false))
                .getMessage()
                .contains("twice"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> ClientAuthenticator.create(List.of(plain("anonymous", "p")), ANON, false))
                .getMessage()
                .contains("reserved"));
        assertThrows(IllegalArgumentException.class, () -> new ClientAuthenticator.Settings(0, 1, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new ClientAuthenticator.Settings(1, 0, Duration.ZERO));
        assertThrows(
                IllegalArgumentException.class, () -> new ClientAuthenticator.Settings(1, 1, Duration.ofMillis(-1)));
    }

    @Test
    void decodedCredentialsNeverPrintTheSecret() {
        BasicCredentials c = BasicCredentials.parse(basic("alice", "hunter2"), 4096);
        assertFalse(c.toString().contains("hunter2"));
        assertTrue(c.toString().contains("alice"));
    }
}
