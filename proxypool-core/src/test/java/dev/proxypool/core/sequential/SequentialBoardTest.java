package dev.proxypool.core.sequential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SequentialBoardTest {

    private final ManualClock clock = new ManualClock();
    private final List<Object[]> heard = new ArrayList<>();
    private final SequentialBoard board = new SequentialBoard(clock, (b, a, t) -> heard.add(new Object[] {b, a, t}));

    private static SequentialRouting abc(Exhaustion e, int threshold) {
        return new SequentialRouting("shop", List.of("a", "b", "c"), e, threshold);
    }

    /** Plays {@code "a:E a:X b:S ..."}: E Empty, S Success, D DuplicateOnly, X Error. */
    private void play(String events) {
        for (String ev : events.trim().split("\\s+")) {
            if (ev.isEmpty()) {
                continue;
            }
            String[] p = ev.split(":");
            FetchOutcome o = switch (p[1]) {
                case "E" -> FetchOutcome.EMPTY;
                case "S" -> new FetchOutcome.Success(5);
                case "D" -> FetchOutcome.DUPLICATE_ONLY;
                case "X" -> new FetchOutcome.Error(FetchOutcome.ErrorKind.NETWORK, "refused");
                default -> throw new IllegalArgumentException(ev);
            };
            int n = p.length > 2 ? Integer.parseInt(p[2]) : 1;
            for (int i = 0; i < n; i++) {
                board.record(p[0], o);
            }
        }
    }

    private long transitions() {
        return heard.stream().filter(h -> (boolean) h[2]).count();
    }

    static Stream<Arguments> rules() {
        return Stream.of(
                Arguments.of("three Empty advance exactly once", Exhaustion.STOP, "a:E:3", 1, false, 0, 1),
                Arguments.of("two Empty do not advance", Exhaustion.STOP, "a:E:2", 0, false, 2, 0),
                Arguments.of(
                        "a fourth Empty of the old upstream does not count for the new one",
                        Exhaustion.STOP,
                        "a:E:4",
                        1,
                        false,
                        0,
                        1),
                Arguments.of(
                        "Error between Empties neither counts nor resets",
                        Exhaustion.STOP,
                        "a:E:2 a:X a:E",
                        1,
                        false,
                        0,
                        1),
                Arguments.of("Errors alone never advance", Exhaustion.STOP, "a:X:10", 0, false, 0, 0),
                Arguments.of("Errors keep the streak", Exhaustion.STOP, "a:E a:X:5 a:E", 0, false, 2, 0),
                Arguments.of("DuplicateOnly resets", Exhaustion.STOP, "a:E:2 a:D a:E:2", 0, false, 2, 0),
                Arguments.of("Success resets", Exhaustion.STOP, "a:E:2 a:S a:E", 0, false, 1, 0),
                Arguments.of(
                        "Empties of a non-current upstream do not count",
                        Exhaustion.STOP,
                        "b:E:5 c:E:5",
                        0,
                        false,
                        0,
                        0),
                Arguments.of(
                        "the count starts when the upstream becomes current",
                        Exhaustion.STOP,
                        "b:E:2 a:E:3 b:E",
                        1,
                        false,
                        1,
                        1),
                Arguments.of("six Empty advance twice", Exhaustion.STOP, "a:E:3 b:E:3", 2, false, 0, 2),
                Arguments.of("stop: exhausted on the last", Exhaustion.STOP, "a:E:3 b:E:3 c:E:3", 2, true, 0, 3),
                Arguments.of("stop: no further advance", Exhaustion.STOP, "a:E:3 b:E:3 c:E:9 a:E:9", 2, true, 0, 3),
                Arguments.of(
                        "stop: Success does not lift exhaustion",
                        Exhaustion.STOP,
                        "a:E:3 b:E:3 c:E:3 c:S",
                        2,
                        true,
                        0,
                        3),
                Arguments.of("loop: back to the first", Exhaustion.LOOP, "a:E:3 b:E:3 c:E:3", 0, false, 0, 3),
                Arguments.of("loop: and on again", Exhaustion.LOOP, "a:E:3 b:E:3 c:E:3 a:E:3", 1, false, 0, 4),
                Arguments.of("stayLast: stays, count reset", Exhaustion.STAY_LAST, "a:E:3 b:E:3 c:E:3", 2, false, 0, 3),
                Arguments.of(
                        "stayLast: each crossing is a transition",
                        Exhaustion.STAY_LAST,
                        "a:E:3 b:E:3 c:E:8",
                        2,
                        false,
                        2,
                        4));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void rules(String name, Exhaustion exhaustion, String events, int index, boolean exhausted, int count, int moves) {
        board.register(abc(exhaustion, 3));
        play(events);
        SequentialState s = board.current("shop");
        assertEquals(index, s.index(), "index");
        assertEquals(List.of("a", "b", "c").get(index), s.upstream());
        assertEquals(exhausted, s.exhausted(), "exhausted");
        assertEquals(count, s.consecutiveEmpty(), "count");
        assertEquals(moves, transitions(), "transitions");
        assertEquals(heard.size(), s.version(), "one version per change");
    }

    @Test
    void routingsSharingAnUpstreamAdvanceTogetherOnce() {
        board.register(new SequentialRouting("r1", List.of("a", "b"), Exhaustion.STOP, 3));
        board.register(new SequentialRouting("r2", List.of("a", "c"), Exhaustion.STOP, 3));
        board.register(new SequentialRouting("r3", List.of("x", "a"), Exhaustion.STOP, 3));
        assertEquals(List.of(), board.record("a", FetchOutcome.EMPTY));
        assertEquals(List.of(), board.record("a", FetchOutcome.EMPTY));
        List<SequentialState> moved = board.record("a", FetchOutcome.EMPTY);
        assertEquals(
                List.of("r1", "r2"),
                moved.stream().map(SequentialState::routing).toList());
        assertEquals("b", board.current("r1").upstream());
        assertEquals("c", board.current("r2").upstream());
        assertEquals("x", board.current("r3").upstream());
        assertEquals(2, transitions());
        assertEquals(Set.of("b", "c", "x"), board.currentUpstreams());
    }

    @Test
    void eachRoutingAppliesItsOwnThresholdToASharedUpstream() {
        board.register(new SequentialRouting("quick", List.of("a", "b"), Exhaustion.STOP, 2));
        board.register(new SequentialRouting("patient", List.of("a", "c"), Exhaustion.STOP, 4));
        play("a:E:2");
        assertEquals("b", board.current("quick").upstream());
        assertEquals(2, board.current("patient").consecutiveEmpty());
        play("a:E:2");
        assertEquals("c", board.current("patient").upstream());
        assertEquals("b", board.current("quick").upstream(), "quick moved once only");
    }

    @Test
    void transitionsCarryReasonTimeAndVersion() {
        board.register(abc(Exhaustion.STOP, 3));
        clock.advance(Duration.ofMinutes(5));
        play("a:E:3");
        SequentialState s = board.current("shop");
        assertEquals(SwitchReason.EMPTY_THRESHOLD, s.reason());
        assertEquals(Instant.parse("2026-01-01T00:05:00Z"), s.changedAt());
        assertEquals(3, s.version());
        Object[] last = heard.getLast();
        assertEquals(2, ((SequentialState) last[0]).consecutiveEmpty());
        assertSame(s, last[1]);
        assertTrue((boolean) last[2]);
        assertFalse((boolean) heard.getFirst()[2], "a count change is not a transition");
    }

    @Test
    void adminResetAndAdvance() {
        board.register(abc(Exhaustion.STOP, 3));
        assertEquals(1, board.advance("shop").index());
        assertEquals(SwitchReason.ADMIN_ADVANCE, board.current("shop").reason());
        assertEquals(2, board.advance("shop").index());
        SequentialState exhausted = board.advance("shop");
        assertTrue(exhausted.exhausted());
        assertSame(exhausted, board.advance("shop"), "an exhausted stop routing does not move");
        SequentialState reset = board.reset("shop");
        assertEquals(0, reset.index());
        assertFalse(reset.exhausted());
        assertEquals(SwitchReason.ADMIN_RESET, reset.reason());
        assertEquals(4, transitions());
    }

    @Test
    void adminAdvanceLoopsAndResetClearsTheCount() {
        board.register(new SequentialRouting("l", List.of("a", "b"), Exhaustion.LOOP, 3));
        board.advance("l");
        assertEquals(0, board.advance("l").index());
        play("a:E:2");
        assertEquals(0, board.reset("l").consecutiveEmpty());
    }

    @Test
    void unknownRoutings() {
        assertTrue(board.state("nope").isEmpty());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> board.current("nope"));
        assertEquals("routing 'nope' is not a registered sequential routing", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> board.reset("nope"));
        assertThrows(IllegalArgumentException.class, () -> board.advance("nope"));
        assertEquals(List.of(), board.record("a", FetchOutcome.EMPTY));
    }

    @Test
    void exportRestoreRoundTrip() {
        board.register(abc(Exhaustion.STOP, 3));
        board.register(new SequentialRouting("other", List.of("x", "y"), Exhaustion.LOOP, 2));
        play("a:E:3 b:E:2 x:E:2 y:E");
        List<SequentialState> saved = board.snapshot();

        SequentialBoard restarted = new SequentialBoard(new ManualClock(Instant.parse("2027-01-01T00:00:00Z")));
        restarted.register(abc(Exhaustion.STOP, 3));
        restarted.register(new SequentialRouting("other", List.of("x", "y"), Exhaustion.LOOP, 2));
        assertEquals(saved, restarted.restore(saved));
        assertEquals(saved, restarted.snapshot());
        restarted.record("b", FetchOutcome.EMPTY);
        assertEquals("c", restarted.current("shop").upstream(), "the restored count carries on");
    }

    @Test
    void restoreFollowsUpstreamsByNameAndSkipsWhatNoLongerExists() {
        Instant t = Instant.parse("2026-02-01T00:00:00Z");
        List<SequentialState> saved = List.of(
                new SequentialState("shop", 2, "c", true, 0, 7, SwitchReason.EMPTY_THRESHOLD, t),
                new SequentialState("gone", 1, "b", false, 0, 3, SwitchReason.ADMIN_ADVANCE, t),
                new SequentialState("moved", 1, "q", false, 1, 4, SwitchReason.ADMIN_ADVANCE, t));
        board.register(new SequentialRouting("shop", List.of("c", "a", "b"), Exhaustion.STOP, 3));
        board.register(new SequentialRouting("moved", List.of("p", "r"), Exhaustion.STOP, 3));
        List<SequentialState> applied = board.restore(saved);
        assertEquals(1, applied.size());
        SequentialState shop = board.current("shop");
        assertEquals(0, shop.index(), "found by name");
        assertFalse(shop.exhausted(), "not the last upstream any more");
        assertEquals(7, shop.version());
        assertEquals("p", board.current("moved").upstream(), "unknown upstream: state skipped");
        assertTrue(heard.isEmpty(), "restore is not a change");
    }

    @Test
    void reRegisteringKeepsOrMovesThePosition() {
        board.register(abc(Exhaustion.STOP, 3));
        play("a:E:3 b:E");
        assertSame(board.current("shop"), board.register(abc(Exhaustion.STOP, 5)), "same list: kept");
        SequentialState moved =
                board.register(new SequentialRouting("shop", List.of("b", "c", "a"), Exhaustion.STOP, 3));
        assertEquals(0, moved.index());
        assertEquals("b", moved.upstream());
        assertEquals(1, moved.consecutiveEmpty());
        assertEquals(SwitchReason.CONFIG_CHANGE, moved.reason());
        SequentialState restarted =
                board.register(new SequentialRouting("shop", List.of("d", "e"), Exhaustion.STOP, 3));
        assertEquals("d", restarted.upstream());
        assertEquals(0, restarted.consecutiveEmpty());
    }

    @Test
    void configureDropsRoutingsNoLongerListed() {
        board.register(abc(Exhaustion.STOP, 3));
        board.register(new SequentialRouting("old", List.of("x", "y"), Exhaustion.STOP, 3));
        board.configure(List.of(abc(Exhaustion.LOOP, 3)));
        assertEquals(
                List.of("shop"),
                board.snapshot().stream().map(SequentialState::routing).toList());
        assertEquals(Exhaustion.LOOP, board.routings().getFirst().exhaustion());
        assertTrue(board.unregister("shop"));
        assertFalse(board.unregister("shop"));
    }

    @Test
    void changingStopToLoopLiftsExhaustion() {
        board.register(abc(Exhaustion.STOP, 1));
        play("a:E b:E c:E");
        assertTrue(board.current("shop").exhausted());
        SequentialState s = board.register(abc(Exhaustion.LOOP, 1));
        assertFalse(s.exhausted());
        play("c:E");
        assertEquals("a", board.current("shop").upstream());
    }

    @Test
    void aThrowingListenerDoesNotDisturbTheBoard() {
        SequentialBoard b = new SequentialBoard(clock, (x, y, t) -> {
            throw new IllegalStateException("listener bug");
        });
        b.register(new SequentialRouting("r", List.of("a", "b"), Exhaustion.STOP, 1));
        b.record("a", FetchOutcome.EMPTY);
        assertEquals("b", b.current("r").upstream());
    }

    static Stream<Arguments> invalidRoutings() {
        return Stream.of(
                Arguments.of(
                        "routings[shop].upstreams: a sequential routing needs at least two upstreams, got 1",
                        List.of("a"),
                        3),
                Arguments.of("routings[shop].upstreams[1]: 'a' is listed twice", List.of("a", "a"), 3),
                Arguments.of("routings[shop].emptyThreshold: must be at least 1, got 0", List.of("a", "b"), 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void invalidRoutings(String message, List<String> upstreams, int threshold) {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new SequentialRouting("shop", upstreams, Exhaustion.STOP, threshold));
        assertEquals(message, e.getMessage());
    }
}
