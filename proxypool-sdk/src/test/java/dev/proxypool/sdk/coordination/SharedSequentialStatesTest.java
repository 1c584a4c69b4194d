package dev.proxypool.sdk.coordination;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.proxypool.core.sequential.Exhaustion;
import dev.proxypool.core.sequential.SequentialBoard;
import dev.proxypool.core.sequential.SequentialRouting;
import dev.proxypool.core.sequential.SequentialState;
import dev.proxypool.core.sequential.SwitchReason;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.testkit.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/** The sequential positions' hash on real Redis: stored, read back, followed by another board. */
class SharedSequentialStatesTest {

    private static final Instant AT = Instant.parse("2026-12-04T10:15:30.123Z");

    private static SequentialState state(String routing, int index, String upstream, SwitchReason why, long version) {
        return new SequentialState(routing, index, upstream, false, 2, version, why, AT);
    }

    @Test
    void statesRoundTripThroughRedisAndABadValueIsSkipped() {
        String prefix = RedisFixture.randomPrefix();
        try (SharedSequentialStates shared = SharedSequentialStates.open(
                CoordinationRedis.of(RedisFixture.config(RedisFixture.SHARED_PORT, prefix)))) {
            SequentialState shop = state("shop", 1, "vendor b", SwitchReason.EMPTY_THRESHOLD, 4);
            SequentialState eu = new SequentialState("eu", 2, "c", true, 0, 9, SwitchReason.ADMIN_ADVANCE, AT);
            shared.save(List.of(shop, eu));
            try (RedisClient c = RedisFixture.client(RedisFixture.SHARED_PORT)) {
                c.hset(shared.key(), "broken", "pp1 x");
            }
            assertEquals(Set.of(shop, eu), Set.copyOf(shared.load()), "an unreadable field is left out");
            assertEquals(prefix + "sequential", shared.key());
        } finally {
            RedisFixture.deleteKeys(RedisFixture.SHARED_PORT, prefix);
        }
    }

    @Test
    void aFollowingBoardTakesTheStoredPosition() {
        String prefix = RedisFixture.randomPrefix();
        try (SharedSequentialStates writer = SharedSequentialStates.open(
                        CoordinationRedis.of(RedisFixture.config(RedisFixture.SHARED_PORT, prefix)));
                SharedSequentialStates reader = SharedSequentialStates.open(
                        CoordinationRedis.of(RedisFixture.config(RedisFixture.SHARED_PORT, prefix)))) {
            SequentialBoard board = new SequentialBoard(new ManualClock());
            board.register(new SequentialRouting("shop", List.of("a", "b", "c"), Exhaustion.STOP, 3));
            reader.follow(board, Duration.ofMillis(50));
            writer.save(List.of(state("shop", 1, "b", SwitchReason.EMPTY_THRESHOLD, 1)));
            Await.atMost(Duration.ofSeconds(10))
                    .until("the board to follow", () -> board.current("shop").index(), i -> i == 1);
            assertEquals(SwitchReason.EMPTY_THRESHOLD, board.current("shop").reason());
        } finally {
            RedisFixture.deleteKeys(RedisFixture.SHARED_PORT, prefix);
        }
    }

    @Test
    void aValueOfAnotherFormatIsNotTaken() {
        assertNull(SharedSequentialStates.decode("shop", "1 b"));
        assertNull(SharedSequentialStates.decode("shop", "pp1 1 1 0 0 no_such_reason 0 b"));
        SequentialState s = state("shop", 0, "a", SwitchReason.INITIAL, 0);
        assertEquals(s, SharedSequentialStates.decode("shop", SharedSequentialStates.encode(s)));
    }
}
