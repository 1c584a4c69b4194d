package dev.proxypool.sdk.provider;

import static dev.proxypool.sdk.provider.Fx.assertError;
import static dev.proxypool.sdk.provider.Fx.fetch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.sdk.credentials.CredentialStore;
import dev.proxypool.sdk.credentials.Credentials;
import dev.proxypool.sdk.credentials.CredentialsUnavailableException;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionGatewayAdapterTest {

    @TempDir
    Path dir;

    private final CredentialStore account =
            StaticCredentialStore.empty().with("acct", "brd-customer-c1-zone-res", "s3cret");

    private static Map<String, String> settings(String... kv) {
        Map<String, String> m = new HashMap<>();
        m.put("endpoint", "gate.example.com:7000");
        m.put("credentialRef", "acct");
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private Credentials resolve(Fx fx, Proxy p) throws CredentialsUnavailableException {
        return fx.inline.over(account).resolve(p.credentialRef());
    }

    @Test
    void materialisesDistinctSessionsWithTheLifetimeAsTtlAndTheUpstreamsTargetingInTheLogin() throws Exception {
        Fx fx = new Fx(dir);
        ProviderAdapter a = fx.adapter(
                "session_gateway",
                settings(
                        "preset", "brightdata",
                        "usernameTemplate", "{user}-country-{country}-session-{session}",
                        "sessions", "5",
                        "sessionLifetime", "10m",
                        "sessionIdLength", "10"));

        FetchReport r = fetch(a, Map.of("country", "us"));

        assertEquals(new FetchOutcome.Success(5), r.outcome(), r::toString);
        Set<String> users = new HashSet<>();
        for (Proxy p : r.candidates()) {
            assertEquals("gate.example.com", p.host());
            assertEquals(7000, p.port());
            assertEquals(Protocol.HTTP, p.protocol());
            assertEquals(fx.clock.instant().plus(Duration.ofMinutes(10)), p.expiresAt());
            assertEquals(Labels.of("country", "us"), p.labels());
            Credentials c = resolve(fx, p);
            assertTrue(c.username().matches("brd-customer-c1-zone-res-country-us-session-[a-z0-9]{10}"), c.username());
            assertEquals("s3cret", c.password().reveal());
            users.add(c.username());
        }
        assertEquals(5, users.size(), "every session has its own id");
        // the account's password is not in the inline store: alone, it cannot resolve a session
        assertThrows(
                CredentialsUnavailableException.class,
                () -> fx.inline.resolve(r.candidates().get(0).credentialRef()));
    }

    @Test
    void idsStayUntilTheirLifetimeEndsThenFreshOnesTakeTheirPlace() throws Exception {
        Fx fx = new Fx(dir);
        ProviderAdapter a =
                fx.adapter("session_gateway", settings("preset", "soax", "sessions", "3", "sessionLifetime", "600s"));

        List<Proxy> first = fetch(a).candidates();
        fx.clock.advance(Duration.ofMinutes(5));
        List<Proxy> second = fetch(a).candidates();
        assertEquals(first, second, "a session keeps its id within its lifetime");
        assertTrue(resolve(fx, first.get(0))
                .username()
                .matches("brd-customer-c1-zone-res-sessionid-[a-z0-9]{8}-sessionlength-600"));

        fx.clock.advance(Duration.ofMinutes(5));
        List<Proxy> third = fetch(a).candidates();
        assertEquals(3, third.size());
        for (Proxy p : third) {
            assertFalse(first.stream().anyMatch(o -> o.key().equals(p.key())), "an ended session is replaced");
        }
        // the ended sessions' refs are forgotten, the live ones resolve
        assertThrows(CredentialsUnavailableException.class, () -> resolve(fx, first.get(0)));
        assertEquals(3, fx.inline.size());
    }

    @Test
    void presetsWriteTheirVendorsGrammar() throws Exception {
        Fx fx = new Fx(dir);
        Proxy oxy = fetch(
                        fx.adapter(
                                "session_gateway",
                                settings(
                                        "preset", "oxylabs",
                                        "usernameTemplate",
                                                "customer-{user}-cc-{country}-sessid-{session}-sesstime-{lifetime}",
                                        "sessions", "1",
                                        "sessionLifetime", "10m")),
                        Map.of("country", "DE"))
                .candidates()
                .get(0);
        assertTrue(resolve(fx, oxy)
                .username()
                .matches("customer-brd-customer-c1-zone-res-cc-DE-sessid-[a-z0-9]{8}-sesstime-10"));

        Proxy roy = fetch(
                        fx.adapter(
                                "session_gateway",
                                settings(
                                        "preset", "iproyal",
                                        "passwordTemplate",
                                                "{password}_country-{country}_session-{session}_lifetime-{lifetime}",
                                        "sessions", "1",
                                        "sessionLifetime", "30m")),
                        Map.of("country", "de"))
                .candidates()
                .get(0);
        Credentials c = resolve(fx, roy);
        assertEquals("brd-customer-c1-zone-res", c.username());
        assertTrue(c.password().reveal().matches("s3cret_country-de_session-[a-z0-9]{8}_lifetime-30m"));
    }

    @Test
    void aPlaceholderTheVendorDoesNotSupportIsRefusedAtLoadNamingTheKey() {
        Fx fx = new Fx(dir);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> fx.adapter(
                        "session_gateway",
                        settings(
                                "preset",
                                "oxylabs",
                                "usernameTemplate",
                                "customer-{user}-zip-{zip}-sessid-{session}")));
        assertEquals(
                "providers[p].usernameTemplate: placeholder {zip} is not supported by preset 'oxylabs'"
                        + " (supported: city, continent, country, lifetime, password, session, state, user)",
                e.getMessage());
        IllegalArgumentException life = assertThrows(
                IllegalArgumentException.class,
                () -> fx.adapter(
                        "session_gateway",
                        settings("preset", "brightdata", "usernameTemplate", "{user}-session-{session}-t-{lifetime}")));
        assertTrue(
                life.getMessage()
                        .startsWith(
                                "providers[p].usernameTemplate: placeholder {lifetime} is not supported by preset 'brightdata'"),
                life.getMessage());
        for (Map.Entry<String, String> bad : Map.of(
                        "preset", "luminati",
                        "endpoint", "gate.example.com",
                        "usernameTemplate", "{user}-fixed",
                        "sessions", "0",
                        "sessionIdAlphabet", "a-b",
                        "protocol", "socks4")
                .entrySet()) {
            Map<String, String> s = settings("preset", "soax");
            s.put(bad.getKey(), bad.getValue());
            IllegalArgumentException ex =
                    assertThrows(IllegalArgumentException.class, () -> fx.adapter("session_gateway", s), bad::toString);
            assertTrue(ex.getMessage().startsWith("providers[p]." + bad.getKey()), ex.getMessage());
        }
        Map<String, String> noAccount = settings("preset", "soax");
        noAccount.remove("credentialRef");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> fx.adapter("session_gateway", noAccount))
                .getMessage()
                .startsWith("providers[p].credentialRef is required"));
    }

    @Test
    void anUpstreamWithoutAParamTheTemplateNeedsFailsTheFetchInWords() {
        Fx fx = new Fx(dir);
        ProviderAdapter a = fx.adapter(
                "session_gateway", settings("usernameTemplate", "{user}-country-{country}-session-{session}"));
        FetchReport r = fetch(a);
        assertError(FetchOutcome.ErrorKind.TEMPLATE, r);
        assertEquals(
                "upstreams[up].params.country is required by providers[p].usernameTemplate ({country})",
                ((FetchOutcome.Error) r.outcome()).detail());
        assertError(FetchOutcome.ErrorKind.TEMPLATE, fetch(a, Map.of("country", "us-east")));
    }

    @Test
    void upstreamsKeepTheirOwnSessions() {
        Fx fx = new Fx(dir);
        ProviderAdapter a = fx.adapter(
                "session_gateway",
                settings(
                        "preset",
                        "brightdata",
                        "usernameTemplate",
                        "{user}-country-{country}-session-{session}",
                        "sessions",
                        "4"));
        List<Proxy> us = a.fetch(FetchContext.of("us", Map.of("country", "us"))).candidates();
        List<Proxy> de = a.fetch(FetchContext.of("de", Map.of("country", "de"))).candidates();
        assertEquals(4, us.size());
        assertEquals(4, de.size());
        assertTrue(us.stream().allMatch(p -> p.upstream().equals("us")));
        assertTrue(de.stream().noneMatch(p -> us.stream().anyMatch(u -> u.key().equals(p.key()))));
    }

    @Test
    void anExtractedSessionIsReplacedByAFreshIdAndTheOthersKeepTheirs() {
        Fx fx = new Fx(dir);
        Set<ProxyKey> extracted = new HashSet<>();
        ProviderAdapter a = ProviderRegistry.standard(Fx.ALL_TYPES)
                .create(
                        ProviderConfig.of("p", "session_gateway", settings("preset", "soax", "sessions", "3")),
                        new ProviderEnvironment(fx.env, dir, fx.clock, fx.clock, fx.inline, extracted::contains));
        List<Proxy> first = fetch(a).candidates();
        extracted.add(first.get(1).key());

        List<Proxy> second = fetch(a).candidates();

        assertEquals(3, second.size());
        assertEquals(first.get(0), second.get(0));
        assertEquals(first.get(2), second.get(1));
        assertFalse(first.stream().anyMatch(p -> p.key().equals(second.get(2).key())), "a fresh session");
    }
}
