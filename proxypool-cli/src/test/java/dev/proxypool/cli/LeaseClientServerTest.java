package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.remote.AcquirableProxy;
import dev.proxypool.sdk.remote.DistributionClient;
import dev.proxypool.sdk.remote.DistributionException;
import dev.proxypool.sdk.remote.LeaseOutcome;
import dev.proxypool.sdk.remote.LeaseRequest;
import dev.proxypool.sdk.remote.ReleaseReceipt;
import dev.proxypool.sdk.remote.RemoteLease;
import dev.proxypool.testkit.Await;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SDK's {@link DistributionClient} acquire, release and list against a real server: the lease
 * with its credentials in the URL, idempotent replay, a repeated release, the typed errors, expiry,
 * and the list's selection with masked addresses.
 */
class LeaseClientServerTest {

    @TempDir
    static Path dir;

    static ApiServer api;
    static DistributionClient alice;

    @BeforeAll
    static void start() throws IOException {
        api = ApiServer.start(dir, ApiServer.sixProxies(), "");
        alice = DistributionClient.builder(api.api())
                .token(ApiServer.ALICE)
                .timeout(Duration.ofSeconds(10))
                .build();
    }

    @AfterAll
    static void stop() {
        alice.close();
        api.close();
    }

    @Test
    void acquireThenReleaseTwice() {
        RemoteLease l = alice.acquire(LeaseRequest.forHost("shop.example")
                .label("country", "US")
                .protocol(Protocol.HTTP)
                .hold(Duration.ofSeconds(90)));
        assertTrue(l.leaseId().startsWith("l-"), l.toString());
        assertEquals("held", l.state());
        assertEquals(Protocol.HTTP, l.protocol());
        assertEquals("US", l.labels().get("country"));
        assertEquals(90, Duration.between(l.acquiredAt(), l.expiresAt()).toSeconds());
        assertFalse(l.toString().contains(l.url()), "toString never shows the URL");
        if (l.host().equals("203.0.113.1")) {
            assertEquals("http://us%40er:p%3Ass@203.0.113.1:8001", l.url());
        } else {
            assertEquals("http://" + l.host() + ":" + l.port(), l.url());
        }
        ReleaseReceipt r = alice.release(LeaseOutcome.ok(l.leaseId()).latency(Duration.ofMillis(150)));
        assertEquals("ok", r.outcome());
        assertFalse(r.alreadyReleased());
        assertTrue(r.heldMs().isPresent());
        ReleaseReceipt again = alice.release(LeaseOutcome.failed(l.leaseId(), FailureKind.CONNECT_TIMEOUT));
        assertTrue(again.alreadyReleased());
        assertEquals("ok", again.outcome(), "the first outcome stands");
    }

    @Test
    void theSameIdempotencyKeyReplaysTheLease() {
        LeaseRequest req = LeaseRequest.any().country("DE").idempotencyKey("sdk-job-1");
        RemoteLease first = alice.acquire(req);
        RemoteLease second = alice.acquire(req);
        assertFalse(first.replayed());
        assertTrue(second.replayed());
        assertEquals(first.leaseId(), second.leaseId());
        assertThrows(
                DistributionException.IdempotencyMismatch.class,
                () -> alice.acquire(LeaseRequest.any().country("US").idempotencyKey("sdk-job-1")));
        alice.release(LeaseOutcome.abandoned(first.leaseId()));
    }

    @Test
    void typedErrors() {
        DistributionException.NothingToLease none = assertThrows(
                DistributionException.NothingToLease.class,
                () -> alice.acquire(LeaseRequest.any().country("FR")));
        assertEquals("no_candidate", none.errorCode());
        assertEquals(503, none.status());
        DistributionException.UnknownLease unknown = assertThrows(
                DistributionException.UnknownLease.class, () -> alice.release(LeaseOutcome.ok("l-nosuchlease")));
        assertFalse(unknown.expired());
        assertEquals(404, unknown.status());
        try (DistributionClient bob =
                DistributionClient.builder(api.api()).token(ApiServer.BOB).build()) {
            RemoteLease l = alice.acquire(LeaseRequest.any().country("US"));
            assertThrows(
                    DistributionException.UnknownLease.class,
                    () -> bob.release(LeaseOutcome.ok(l.leaseId())),
                    "another client's lease");
            alice.release(LeaseOutcome.ok(l.leaseId()));
        }
        assertThrows(
                DistributionException.Unauthorized.class,
                () -> DistributionClient.builder(api.api())
                        .token("not-a-token-0123456789")
                        .build()
                        .acquire(LeaseRequest.any()));
    }

    @Test
    void anExpiredLeaseAnswersLeaseExpired() {
        long before = api.server.leases().expiredCount();
        RemoteLease l = alice.acquire(LeaseRequest.any().country("US").hold(Duration.ofSeconds(1)));
        Await.atMost(Duration.ofSeconds(10))
                .until("the server expired the lease", () -> api.server.leases().expiredCount() > before);
        DistributionException.UnknownLease e = assertThrows(
                DistributionException.UnknownLease.class, () -> alice.release(LeaseOutcome.ok(l.leaseId())));
        assertTrue(e.expired(), e.getMessage());
        assertEquals(409, e.status());
    }

    @Test
    void listSelectsAndMasks() {
        List<AcquirableProxy> de = alice.list(LeaseRequest.any().country("DE"), 100);
        assertEquals(2, de.size());
        for (AcquirableProxy p : de) {
            assertEquals(Protocol.SOCKS5, p.protocol());
            assertFalse(p.maskedHost().startsWith("203.0.113."), p.maskedHost());
            assertEquals("DE", p.labels().get("country"));
        }
        assertEquals(1, alice.list(LeaseRequest.any(), 1).size());
        assertThrows(IllegalArgumentException.class, () -> alice.list(LeaseRequest.any(), 0));
    }
}
