package dev.proxypool.server.access;

import static dev.proxypool.server.access.ClientAuthenticatorTest.basic;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.security.SecretHash;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.credentials.Secret;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The gateway's clients following the admin configuration: auth, rate limits, usernames, quotas. */
class LiveClientsTest {

    private static final int FAST = 2_000;
    private static final ProxyPoolConfig.Security SECURITY = ProxyPoolConfig.Security.DEFAULTS;

    private final ManualClock clock = new ManualClock();

    private static ProxyPoolConfig.Client stored(String name, String secret, double rps, int quota) {
        return new ProxyPoolConfig.Client(
                name,
                Optional.of(SecretHash.hash(secret.toCharArray(), FAST)),
                Optional.empty(),
                Optional.empty(),
                quota,
                rps);
    }

    private static ProxyPoolConfig.Client configuredPlain(String name, String secret) {
        return new ProxyPoolConfig.Client(
                name, Optional.empty(), Optional.of(Secret.of(secret)), Optional.empty(), 0, 0);
    }

    @Test
    void theConfigFilesPlainSecretStaysInForceWhileTheStoredHashStillVerifiesIt() {
        ProxyPoolConfig.Client seeded = stored("alice", "alice-pw", 0, 0);
        LiveClients live = LiveClients.create(
                List.of(configuredPlain("alice", "alice-pw")), List.of(seeded), SECURITY, false, clock);
        ProxyPoolConfig.Client inForce = live.clients().getFirst();
        assertTrue(inForce.plainSecret().isPresent(), "the plain dev secret (fast compare) is used");
        assertTrue(inForce.secretHash().isEmpty());
        assertEquals("alice", live.authenticate(basic("alice", "alice-pw")));

        // an admin changed alice's secret: the stored hash is what counts now
        live.update(List.of(stored("alice", "changed-pw", 0, 0)));
        assertTrue(live.clients().getFirst().secretHash().isPresent());
        assertNull(live.authenticate(basic("alice", "alice-pw")), "the config file's secret no longer works");
        assertEquals("alice", live.authenticate(basic("alice", "changed-pw")));
    }

    @Test
    void createdChangedAndDeletedClientsTakeEffectAtOnce() {
        ProxyPoolConfig.Client alice = stored("alice", "alice-pw", 0, 0);
        LiveClients live = LiveClients.create(List.of(), List.of(alice), SECURITY, false, clock);
        assertNull(live.authenticate(basic("bob", "bob-pw")));
        assertInstanceOf(UsernameParser.UnknownClient.class, live.usernames().parse("bob-session-s1"));

        live.update(List.of(alice, stored("bob", "bob-pw", 1, 5)));
        assertEquals("bob", live.authenticate(basic("bob", "bob-pw")));
        assertInstanceOf(UsernameParser.Parsed.class, live.usernames().parse("bob-session-s1"));
        assertTrue(live.rates().tryAcquire("bob"));
        assertFalse(live.rates().tryAcquire("bob"), "bob's 1 request/s");
        assertEquals(Map.of("alice", 0, "bob", 5), live.quotas());

        live.update(List.of(alice));
        assertNull(live.authenticate(basic("bob", "bob-pw")), "deleted");
        assertInstanceOf(UsernameParser.UnknownClient.class, live.usernames().parse("bob-session-s1"));
        assertFalse(live.rates().limits("bob"));
        assertEquals("alice", live.authenticate(basic("alice", "alice-pw")));
    }

    @Test
    void aChangeKeepsTheRateStateOfClientsWhoseRateDidNotChange() {
        ProxyPoolConfig.Client alice = stored("alice", "alice-pw", 2, 0);
        LiveClients live = LiveClients.create(List.of(), List.of(alice), SECURITY, false, clock);
        assertTrue(live.rates().tryAcquire("alice"));
        assertTrue(live.rates().tryAcquire("alice"));
        assertFalse(live.rates().tryAcquire("alice"), "burst of 2 used");

        live.update(List.of(alice, stored("bob", "bob-pw", 0, 0)));
        assertFalse(live.rates().tryAcquire("alice"), "no fresh burst because another client was added");

        live.update(List.of(stored("alice", "alice-pw", 3, 0)));
        assertTrue(live.rates().tryAcquire("alice"), "a changed rate starts a new bucket");
    }

    @Test
    void anUnchangedListChangesNothingAndABadOneLeavesTheClientsInForce() {
        ProxyPoolConfig.Client alice = stored("alice", "alice-pw", 0, 0);
        LiveClients live = LiveClients.create(List.of(), List.of(alice), SECURITY, false, clock);
        ClientAuthenticator before = live.authenticator();
        live.update(List.of(alice));
        assertSame(before, live.authenticator(), "an equal list: nothing rebuilt (no PBKDF2, cache kept)");

        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> live.update(List.of(alice, stored("alice", "other", 0, 0))));
        assertTrue(e.getMessage().contains("defined twice"), e.getMessage());
        assertSame(before, live.authenticator());
        assertEquals("alice", live.authenticate(basic("alice", "alice-pw")));
    }

    @Test
    void withoutClientsANonLoopbackGatewayIsClosedAndAnAddedClientOpensIt() {
        LiveClients live = LiveClients.create(List.of(), List.of(), SECURITY, false, clock);
        assertEquals(ClientAuthenticator.Mode.CLOSED, live.authenticator().mode());
        live.update(List.of(stored("alice", "alice-pw", 0, 0)));
        assertEquals(
                ClientAuthenticator.Mode.CREDENTIALS_REQUIRED,
                live.authenticator().mode());
        assertEquals("alice", live.authenticate(basic("alice", "alice-pw")));
    }
}
