package dev.proxypool.core.sticky;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.dispatch.Dispatcher;
import dev.proxypool.core.dispatch.PickRequest;
import dev.proxypool.core.dispatch.Picked;
import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.snapshot.PoolFixture;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * When a sticky session moves off its proxy (docs/design.md#sticky-sessions, S8): after
 * {@code switchFailures} (3) failures in a row or {@code switchErrorRate} (30%) of its recent
 * requests, not after one failure; at once when the proxy itself leaves the pool.
 */
class SessionSwitchingTest {

    private static final SessionKey S1 = new SessionKey("alice", "shop", "s1");

    private final PoolFixture f = new PoolFixture();
    private final Dispatcher dispatcher = new Dispatcher();
    private final PickRequest request = PickRequest.of(CandidateFilter.ANY, Strategy.ROUND_ROBIN);

    private StickyDispatch sticky(StickyPolicy.OnLost onLost) {
        StickyPolicy policy = new StickyPolicy(
                true, StickyPolicy.DEFAULT_HEADER, Duration.ofMinutes(10), Duration.ofSeconds(60), onLost, 1000);
        return new StickyDispatch(new StickyTable(policy), dispatcher);
    }

    /**
     * One request of the session as the gateway runs it: pick, connect, report the outcome, and on a
     * failure one retry with the failed proxy excluded (reported too). Returns the proxy of the
     * first attempt.
     */
    private String request(StickyDispatch sd, PoolSnapshot s, boolean fails) {
        StickyPick pick = sd.pick(S1, s, request, f.now());
        Picked p = assertInstanceOf(Picked.class, pick.result().orElseThrow());
        p.reservation().activate();
        sd.connected(S1, pick, s, f.now());
        if (fails) {
            sd.failed(S1, p.proxy().id());
            p.reservation().release();
            StickyPick retry = sd.pick(S1, s, request.excluding(p.proxy().id()), f.now());
            Picked other = assertInstanceOf(Picked.class, retry.result().orElseThrow());
            assertNotEquals(p.proxy().id(), other.proxy().id(), "a retry never goes back to the failed proxy");
            other.reservation().activate();
            sd.connected(S1, retry, s, f.now());
            sd.succeeded(S1, other.proxy().id());
            other.reservation().release();
        } else {
            sd.succeeded(S1, p.proxy().id());
            p.reservation().release();
        }
        return p.proxy().id();
    }

    @Test
    void aSessionStaysThroughTwoFailuresAndMovesOnTheThird() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.REPIN);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 4));
        String bound = request(sd, s, false);

        assertEquals(bound, request(sd, s, true), "first failure");
        assertEquals(
                bound, sd.table().find(S1).orElseThrow().proxyId(), "one failure (and its retry) keeps the session");
        assertEquals(bound, request(sd, s, true), "second failure");
        assertEquals(bound, sd.table().find(S1).orElseThrow().proxyId(), "two failures keep it too");
        assertEquals(2, sd.table().find(S1).orElseThrow().failureStreak());
        assertEquals(bound, request(sd, s, true), "third failure, still served by the bound proxy");

        String moved = sd.table().find(S1).orElseThrow().proxyId();
        assertNotEquals(bound, moved, "the third failure moved the session: its retry's proxy is bound now");
        assertEquals(moved, request(sd, s, false), "and the session stays on its new proxy");
        assertEquals(moved, request(sd, s, false));
    }

    @Test
    void aSessionMovedByItsFailuresAvoidsTheProxyItLeft() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.REPIN);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 2)); // without the exclusion, half the moves would stay
        for (int trial = 0; trial < 8; trial++) {
            SessionKey key = new SessionKey("alice", "shop", "t" + trial);
            StickyPick first = sd.pick(key, s, request, f.now());
            Picked bound = assertInstanceOf(Picked.class, first.result().orElseThrow());
            sd.connected(key, first, s, f.now());
            bound.reservation().release();
            for (int i = 0; i < 3; i++) { // failures without retries (a tunnel, a request with a body)
                StickyPick pick = sd.pick(key, s, request, f.now());
                Picked p = assertInstanceOf(Picked.class, pick.result().orElseThrow());
                assertEquals(bound.proxy().id(), p.proxy().id(), "failure " + (i + 1) + " still on the bound proxy");
                sd.failed(key, p.proxy().id());
                p.reservation().release();
            }
            StickyPick.Fresh fresh = assertInstanceOf(StickyPick.Fresh.class, sd.pick(key, s, request, f.now()));
            assertEquals(Optional.of(LossReason.SESSION_FAILURES), fresh.lost());
            Picked moved = assertInstanceOf(Picked.class, fresh.pick());
            assertNotEquals(bound.proxy().id(), moved.proxy().id(), "trial " + trial + ": avoids the proxy it left");
            moved.reservation().release();
        }
    }

    @Test
    void aSuccessEndsTheStreak() {
        StickyPolicy streakOnly = StickyPolicy.DEFAULTS.withSwitching(3, 1.0, 10); // the ratio rule out of the way
        StickyDispatch sd = new StickyDispatch(new StickyTable(streakOnly), dispatcher);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 4));
        String bound = request(sd, s, false);
        boolean[] pattern = {true, true, false, true, true, false, true, true}; // never three in a row
        for (int i = 0; i < pattern.length; i++) {
            assertEquals(bound, request(sd, s, pattern[i]), "request " + (i + 2));
        }
        assertEquals(bound, sd.table().find(S1).orElseThrow().proxyId());
        assertEquals(2, sd.table().find(S1).orElseThrow().failureStreak());
        assertEquals(bound, request(sd, s, true), "the third in a row");
        assertNotEquals(bound, sd.table().find(S1).orElseThrow().proxyId(), "moved");
    }

    @Test
    void theErrorRatioMovesASessionThatNeverFailsThreeTimesInARow() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.REPIN);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 4));
        String bound = request(sd, s, false); // 1 request, 0 failed
        // S F S S F: 2 of 6 (33%) once the 6th request is in; half the 10-request window is 5 requests
        boolean[] pattern = {false, true, false, false, true};
        for (int i = 0; i < pattern.length - 1; i++) {
            assertEquals(bound, request(sd, s, pattern[i]), "request " + (i + 2));
        }
        StickyTable.BindingView view = sd.table().find(S1).orElseThrow();
        assertEquals(5, view.windowRequests());
        assertEquals(1, view.windowFailures(), "1 of 5 (20%) is below the 30% ratio");
        assertEquals(bound, request(sd, s, true), "the 6th request fails: 2 of 6, 33%");
        assertNotEquals(bound, sd.table().find(S1).orElseThrow().proxyId(), "moved by the ratio");
    }

    @Test
    void theRatioNeedsHalfTheWindowBeforeItJudges() {
        StickyPolicy policy = StickyPolicy.DEFAULTS.withSwitching(5, 0.30, 10);
        StickyDispatch sd = new StickyDispatch(new StickyTable(policy), dispatcher);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 4));
        String bound = request(sd, s, false);
        assertEquals(bound, request(sd, s, true)); // 1 of 2
        assertEquals(bound, request(sd, s, false)); // 1 of 3
        assertEquals(bound, request(sd, s, true)); // 2 of 4: 50%, but only 4 requests
        assertEquals(bound, sd.table().find(S1).orElseThrow().proxyId(), "four requests do not decide");
        assertEquals(bound, request(sd, s, true)); // 3 of 5: judged now
        assertNotEquals(bound, sd.table().find(S1).orElseThrow().proxyId(), "moved by the ratio");
    }

    @Test
    void aSessionMovesAtOnceWhenItsProxyIsDisabled() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.REPIN);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 4));
        String bound = request(sd, s, false);
        s.runtime(s.slotOf(bound)).health().disable("operator", f.now());
        StickyPick.Fresh fresh = assertInstanceOf(StickyPick.Fresh.class, sd.pick(S1, s, request, f.now()));
        assertEquals(Optional.of(LossReason.UNHEALTHY), fresh.lost(), "no failure needed");
        assertNotEquals(bound, ((Picked) fresh.pick()).proxy().id());
        ((Picked) fresh.pick()).reservation().release();
    }

    @Test
    void aSessionMovesAtOnceWhenItsProxyIsCooled() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.REPIN);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 4));
        String bound = request(sd, s, false);
        assertEquals(bound, request(sd, s, true), "one failure: the session stays");
        ProxyHealth health = s.runtime(s.slotOf(bound)).health();
        for (int i = 0; i < 3; i++) { // other traffic cools the proxy (3 passive failures in a row)
            health.recordFailure(health.tryAdmit(f.now()), FailureKind.CONNECT_TIMEOUT, f.now());
        }
        StickyPick.Fresh fresh = assertInstanceOf(StickyPick.Fresh.class, sd.pick(S1, s, request, f.now()));
        assertEquals(Optional.of(LossReason.UNHEALTHY), fresh.lost());
        ((Picked) fresh.pick()).reservation().release();
    }

    @Test
    void aStrictSessionRefusesTheRetryButKeepsItsProxyAfterOneFailure() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.STRICT);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 4));
        StickyPick first = sd.pick(S1, s, request, f.now());
        Picked p = (Picked) first.result().orElseThrow();
        sd.connected(S1, first, s, f.now());
        sd.failed(S1, p.proxy().id());
        p.reservation().release();
        StickyPick.SessionLost refused = assertInstanceOf(
                StickyPick.SessionLost.class,
                sd.pick(S1, s, request.excluding(p.proxy().id()), f.now()));
        assertEquals(LossReason.EXCLUDED, refused.reason());
        StickyPick.Reused again = assertInstanceOf(StickyPick.Reused.class, sd.pick(S1, s, request, f.now()));
        assertEquals(p.proxy().id(), ((Picked) again.pick()).proxy().id(), "the next request is on the same exit");
        ((Picked) again.pick()).reservation().release();
    }

    @Test
    void outcomesOfOtherProxiesDoNotCount() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.REPIN);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 4));
        String bound = request(sd, s, false);
        for (int i = 0; i < 5; i++) {
            assertFalse(sd.failed(S1, "someone-else"));
        }
        assertEquals(0, sd.table().find(S1).orElseThrow().failureStreak());
        assertEquals(bound, request(sd, s, false));
    }

    @Test
    void aSessionWithOnlyOneProxyStaysOnItAfterItsFailures() {
        StickyDispatch sd = sticky(StickyPolicy.OnLost.REPIN);
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 1));
        StickyPick first = sd.pick(S1, s, request, f.now());
        Picked p = (Picked) first.result().orElseThrow();
        sd.connected(S1, first, s, f.now());
        p.reservation().release();
        for (int i = 0; i < 3; i++) {
            sd.failed(S1, p.proxy().id());
        }
        StickyPick.Fresh fresh = assertInstanceOf(StickyPick.Fresh.class, sd.pick(S1, s, request, f.now()));
        assertEquals(p.proxy().id(), ((Picked) fresh.pick()).proxy().id(), "no other proxy: the old one serves");
        ((Picked) fresh.pick()).reservation().release();
    }

    @Test
    void badSwitchingSettingsNameTheirKey() {
        assertEquals(
                "sticky.switchFailures must be at least 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> StickyPolicy.DEFAULTS.withSwitching(0, 0.3, 10))
                        .getMessage());
        assertEquals(
                "sticky.switchErrorRate must be above 0 and at most 1, got 1.5",
                assertThrows(IllegalArgumentException.class, () -> StickyPolicy.DEFAULTS.withSwitching(3, 1.5, 10))
                        .getMessage());
        assertEquals(
                "sticky.switchWindow must be between 2 and 64, got 65",
                assertThrows(IllegalArgumentException.class, () -> StickyPolicy.DEFAULTS.withSwitching(3, 0.3, 65))
                        .getMessage());
        assertEquals(3, StickyPolicy.DEFAULTS.switchFailures());
        assertEquals(0.30, StickyPolicy.DEFAULTS.switchErrorRate());
        assertEquals(10, StickyPolicy.DEFAULTS.switchWindow());
        assertEquals(Duration.ofSeconds(60), StickyPolicy.DEFAULTS.idle());
    }
}
