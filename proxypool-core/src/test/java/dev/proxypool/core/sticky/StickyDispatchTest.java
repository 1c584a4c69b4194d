package dev.proxypool.core.sticky;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.capacity.Reservation;
import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.dispatch.Dispatcher;
import dev.proxypool.core.dispatch.NoCandidate;
import dev.proxypool.core.dispatch.PickRequest;
import dev.proxypool.core.dispatch.Picked;
import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.snapshot.PoolFixture;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StickyDispatchTest {

    private static final SessionKey S1 = new SessionKey("alice", "shop", "s1");

    private final PoolFixture f = new PoolFixture();
    private final Dispatcher dispatcher = new Dispatcher();
    private final PickRequest request = PickRequest.of(CandidateFilter.ANY, Strategy.ROUND_ROBIN);

    private StickyDispatch sticky(StickyPolicy.OnLost onLost) {
        StickyPolicy policy = new StickyPolicy(
                true, StickyPolicy.DEFAULT_HEADER, Duration.ofMinutes(10), Duration.ofSeconds(60), onLost, 1000);
        return new StickyDispatch(new StickyTable(policy), dispatcher);
    }

    /** One request of session {@code key}: pick, "connect" successfully, finish. Returns the pick. */
    private StickyPick request(StickyDispatch sd, SessionKey key, PoolSnapshot s, PickRequest r) {
        StickyPick pick = sd.pick(key, s, r, f.now());
        pick.result().ifPresent(result -> {
            if (result instanceof Picked p) {
                p.reservation().activate();
                sd.connected(key, pick, s, f.now());
                p.reservation().release();
            }
        });
        return pick;
    }

    private static String proxyOf(StickyPick pick) {
        return ((Picked) pick.result().orElseThrow()).proxy().id();
    }

    @Test
    void theSameSessionKeepsItsProxyWhileItQualifies() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.REPIN);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 5));
        StickyPick first = request(sd, S1, s, request);
        assertInstanceOf(StickyPick.Fresh.class, first);
        String bound = proxyOf(first);
        for (int i = 0; i < 15; i++) { // 7.5 minutes, within the 10-minute lifetime
            f.clock.advance(Duration.ofSeconds(30));
            StickyPick again = request(sd, S1, s, request);
            assertInstanceOf(StickyPick.Reused.class, again);
            assertEquals(bound, proxyOf(again));
        }
        StickyPick other = request(sd, new SessionKey("alice", "shop", "s2"), s, request);
        assertNotEquals(bound, proxyOf(other), "round robin moved on for a new session");
        StickyPick otherClient = request(sd, new SessionKey("bob", "shop", "s1"), s, request);
        assertInstanceOf(StickyPick.Fresh.class, otherClient, "the session id is per client");
    }

    @Test
    void aCooledProxyIsRepinnedOrFailsTheStrictSession() {
        for (StickyPolicy.OnLost onLost : StickyPolicy.OnLost.values()) {
            PoolFixture fx = new PoolFixture();
            StickyDispatch sd = sticky(onLost);
            PoolSnapshot s = fx.build(PoolFixture.proxies("p", 3));
            StickyPick first = sd.pick(S1, s, request, fx.now());
            Picked p = (Picked) first.result().orElseThrow();
            sd.connected(S1, first, s, fx.now());
            p.reservation().release();
            p.runtime().health().disable("cooled for the test", fx.now());

            StickyPick next = sd.pick(S1, s, request, fx.now());
            switch (next) {
                case StickyPick.Fresh fresh -> {
                    assertEquals(StickyPolicy.OnLost.REPIN, onLost);
                    assertEquals(Optional.of(LossReason.UNHEALTHY), fresh.lost());
                    Picked repinned = assertInstanceOf(Picked.class, fresh.pick());
                    assertNotEquals(p.proxy().id(), repinned.proxy().id());
                    sd.connected(S1, next, s, fx.now());
                    repinned.reservation().release();
                    assertEquals(
                            repinned.proxy().id(),
                            sd.table().find(S1).orElseThrow().proxyId());
                }
                case StickyPick.SessionLost lost -> {
                    assertEquals(StickyPolicy.OnLost.STRICT, onLost);
                    assertEquals(p.proxy().id(), lost.proxyId());
                    assertEquals(LossReason.UNHEALTHY, lost.reason());
                    assertTrue(sd.table().find(S1).isEmpty(), "the lost binding is cleared");
                    assertInstanceOf(
                            StickyPick.Fresh.class,
                            sd.pick(S1, s, request, fx.now()),
                            "the next request starts a new binding");
                }
                case StickyPick.Reused reused -> throw new AssertionError("kept a disabled proxy: " + reused);
                case StickyPick.Detour detour -> throw new AssertionError("a disabled proxy is no detour: " + detour);
            }
        }
    }

    @Test
    void aProxyAbsentFromTheNewSnapshotIsLost() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.REPIN);
        List<Proxy> proxies = PoolFixture.proxies("p", 3);
        PoolSnapshot v1 = f.build(proxies);
        String bound = proxyOf(request(sd, S1, v1, request));
        List<Proxy> without = new ArrayList<>(proxies);
        without.removeIf(p -> p.id().equals(bound));
        PoolSnapshot v2 = f.build(without);
        StickyPick.Fresh fresh = assertInstanceOf(StickyPick.Fresh.class, request(sd, S1, v2, request));
        assertEquals(Optional.of(LossReason.PROXY_GONE), fresh.lost());
        assertInstanceOf(StickyPick.Reused.class, request(sd, S1, v2, request));
    }

    @Test
    void aProxyThatNoLongerPassesTheRoutingsFilterIsLost() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.STRICT);
        PoolSnapshot v1 = f.build(
                PoolFixture.proxy("p0").labels(Labels.of("type", "residential")).build());
        PickRequest residential = PickRequest.of(
                CandidateFilter.ANY.withLabels(LabelSelector.parse("type=residential")), Strategy.RANDOM);
        request(sd, S1, v1, residential);
        PoolSnapshot v2 = f.build(
                PoolFixture.proxy("p0").labels(Labels.of("type", "datacenter")).build());
        StickyPick.SessionLost lost =
                assertInstanceOf(StickyPick.SessionLost.class, sd.pick(S1, v2, residential, f.now()));
        assertEquals(LossReason.FILTERED_OUT, lost.reason());
    }

    @Test
    void anExpiredProxyIsLost() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.REPIN);
        Instant now = f.clock.instant();
        PoolSnapshot s = f.build(
                PoolFixture.proxy("short").expiresAt(now.plusSeconds(120)).build(),
                PoolFixture.proxy("long").build());
        PickRequest ttl30 =
                PickRequest.of(CandidateFilter.ANY.withMinRemainingTtl(Duration.ofSeconds(30)), Strategy.ROUND_ROBIN);
        assertEquals("short", proxyOf(request(sd, S1, s, ttl30)));
        f.clock.advance(Duration.ofSeconds(50));
        assertEquals("short", proxyOf(request(sd, S1, s, ttl30)));
        f.clock.advance(Duration.ofSeconds(45)); // 25 s left < 30 s minimum
        StickyPick.Fresh fresh = assertInstanceOf(StickyPick.Fresh.class, request(sd, S1, s, ttl30));
        assertEquals(Optional.of(LossReason.PROXY_EXPIRING), fresh.lost());
        assertEquals("long", proxyOf(fresh));
    }

    /** Regression guard: a binding must not outlive its proxy's expiry even if a new snapshot extends it. */
    @Test
    void theBindingLifetimeIsCappedByTheProxyExpiryAtBindTime() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.STRICT);
        Instant now = f.clock.instant();
        PoolSnapshot v1 = f.build(PoolFixture.proxy("p0")
                .expiresAt(now.plus(Duration.ofMinutes(5)))
                .build());
        request(sd, S1, v1, request);
        StickyTable.BindingView view = sd.table().find(S1).orElseThrow();
        assertEquals(Duration.ofMinutes(5).toNanos(), view.expiresNanos() - view.createdNanos());
        PoolSnapshot v2 = f.build(
                PoolFixture.proxy("p0").expiresAt(now.plus(Duration.ofHours(1))).build());
        for (int i = 0; i < 5; i++) {
            f.clock.advance(Duration.ofSeconds(50));
            assertInstanceOf(StickyPick.Reused.class, request(sd, S1, v2, request));
        }
        f.clock.advance(Duration.ofSeconds(50)); // 5 min 0 s after binding
        StickyPick.SessionLost lost = assertInstanceOf(StickyPick.SessionLost.class, sd.pick(S1, v2, request, f.now()));
        assertEquals(LossReason.PROXY_EXPIRED, lost.reason());
    }

    @Test
    void theBindingLifetimeEndsAfterTenMinutesByDefault() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.REPIN);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 3));
        request(sd, S1, s, request);
        for (int i = 1; i <= 10; i++) {
            f.clock.advance(Duration.ofSeconds(55));
            assertInstanceOf(StickyPick.Reused.class, request(sd, S1, s, request), "after " + 55 * i + " s");
        }
        f.clock.advance(Duration.ofSeconds(55)); // 605 s after binding
        StickyPick.Fresh fresh = assertInstanceOf(StickyPick.Fresh.class, request(sd, S1, s, request));
        assertEquals(Optional.of(LossReason.LIFETIME_ENDED), fresh.lost());
    }

    @Test
    void anIdleSessionLosesItsBinding() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.REPIN);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 3));
        request(sd, S1, s, request);
        f.clock.advance(Duration.ofSeconds(60));
        assertInstanceOf(StickyPick.Reused.class, request(sd, S1, s, request), "exactly the idle timeout still holds");
        f.clock.advance(Duration.ofSeconds(61));
        StickyPick.Fresh fresh = assertInstanceOf(StickyPick.Fresh.class, request(sd, S1, s, request));
        assertEquals(Optional.of(LossReason.IDLE), fresh.lost());
    }

    @Test
    void aMomentarilyFullProxyKeepsTheBinding() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.STRICT);
        PoolSnapshot s = f.build(
                PoolFixture.proxy("p0").maxConcurrency(1).build(),
                PoolFixture.proxy("p1").build());
        String bound = proxyOf(request(sd, S1, s, request));
        Reservation hold = s.runtime(s.slotOf(bound)).capacity().tryReserve();
        StickyPick.Reused busy = assertInstanceOf(StickyPick.Reused.class, sd.pick(S1, s, request, f.now()));
        assertEquals(
                NoCandidate.Reason.BUSY,
                assertInstanceOf(NoCandidate.class, busy.pick()).reason());
        hold.release();
        assertEquals(bound, proxyOf(request(sd, S1, s, request)));
    }

    @Test
    void aConnectFailureClearsTheBinding() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.STRICT);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 3));
        request(sd, S1, s, request);
        StickyPick reused = sd.pick(S1, s, request, f.now());
        ((Picked) reused.result().orElseThrow()).reservation().cancel();
        sd.connectFailed(S1);
        assertTrue(sd.table().find(S1).isEmpty());
        StickyPick.Fresh fresh = assertInstanceOf(StickyPick.Fresh.class, sd.pick(S1, s, request, f.now()));
        assertTrue(fresh.lost().isEmpty(), "a cleared binding is simply absent, not lost");
        ((Picked) fresh.pick()).reservation().release();
    }

    @Test
    void aBindingIsNotLostWhileTheProxyIsBannedForAnotherDomainOnly() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.STRICT);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 2));
        String bound = proxyOf(request(sd, S1, s, request.withDomain("shop.example")));
        s.runtime(s.slotOf(bound)).health().banDomain("other.example", f.now());
        assertEquals(bound, proxyOf(request(sd, S1, s, request.withDomain("shop.example"))));
    }
}
