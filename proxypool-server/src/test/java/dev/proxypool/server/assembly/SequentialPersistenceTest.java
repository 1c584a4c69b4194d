package dev.proxypool.server.assembly;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.sequential.Exhaustion;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.core.sequential.SequentialBoard;
import dev.proxypool.core.sequential.SequentialRouting;
import dev.proxypool.core.sequential.SequentialState;
import dev.proxypool.core.sequential.SwitchReason;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.server.persistence.PgSchema;
import dev.proxypool.server.persistence.PostgresConfigStore;
import dev.proxypool.testkit.Await;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The board's moves reach real PostgreSQL off the fetch round's thread, and a move made while the
 * database refuses the write (its table renamed away) is stored once it accepts writes again,
 * without a further move.
 */
class SequentialPersistenceTest {

    @Test
    void aMoveMadeWhileTheDatabaseRefusesIsStoredWhenItAcceptsAgain() {
        ManualClock clock = new ManualClock();
        try (PgSchema schema = PgSchema.create();
                PostgresConfigStore store = PostgresConfigStore.open(schema.settings(), clock)) {
            SequentialPersistence persistence = new SequentialPersistence(store, null);
            try {
                SequentialBoard board = new SequentialBoard(clock, persistence);
                board.register(new SequentialRouting("shop", List.of("a", "b", "c"), Exhaustion.STOP, 1));

                board.record("a", FetchOutcome.EMPTY);
                SequentialState first = Await.atMost(Duration.ofSeconds(10))
                        .until("the first move stored", () -> stored(store), s -> s != null && s.index() == 1);
                assertEquals(SwitchReason.EMPTY_THRESHOLD, first.reason());

                schema.execute("ALTER TABLE sequential_state RENAME TO sequential_state_away");
                board.record("b", FetchOutcome.EMPTY); // to c, while no write can succeed
                Await.atMost(Duration.ofSeconds(10)).until("the write to fail", persistence::retrying);
                assertEquals(
                        "1",
                        schema.scalar("SELECT idx FROM sequential_state_away WHERE routing = 'shop'"),
                        "not stored while the table is away");
                schema.execute("ALTER TABLE sequential_state_away RENAME TO sequential_state");

                SequentialState second = Await.atMost(Duration.ofSeconds(10))
                        .until("the move made meanwhile stored", () -> stored(store), s -> s.index() == 2);
                assertEquals(board.current("shop"), second, "the store holds the board's state");
            } finally {
                persistence.close();
            }
        }
    }

    private static SequentialState stored(PostgresConfigStore store) {
        return store.sequentialStates().stream()
                .filter(s -> s.routing().equals("shop"))
                .findFirst()
                .orElse(null);
    }
}
