package dev.proxypool.core.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The reservation lifecycle and its exactly-once release. */
class ReservationTest {

    @Test
    void reservedThenActiveThenReleased() {
        CapacityCell cell = new CapacityCell(2);
        Reservation r = cell.tryReserve();
        assertSame(cell, r.cell());
        assertEquals(Reservation.State.RESERVED, r.state());
        assertTrue(r.isHeld());
        assertEquals(1, cell.inFlight());
        assertEquals(0, cell.active());

        assertTrue(r.activate());
        assertEquals(Reservation.State.ACTIVE, r.state());
        assertTrue(r.isHeld());
        assertEquals(1, cell.inFlight());
        assertEquals(1, cell.active());
        assertFalse(r.activate(), "activating twice");
        assertEquals(1, cell.active());

        assertTrue(r.release());
        assertEquals(Reservation.State.RELEASED, r.state());
        assertFalse(r.isHeld());
        assertEquals(0, cell.inFlight());
        assertEquals(0, cell.active());
    }

    @Test
    void cancelBeforeConnecting() {
        CapacityCell cell = new CapacityCell(1);
        Reservation r = cell.tryReserve();
        assertTrue(r.cancel());
        assertEquals(Reservation.State.CANCELLED, r.state());
        assertFalse(r.isHeld());
        assertEquals(0, cell.inFlight());
        assertFalse(r.activate(), "a cancelled reservation never becomes active");
        assertEquals(0, cell.active());
    }

    @Test
    void cancelWhileActiveGivesBackBothCounts() {
        CapacityCell cell = new CapacityCell(1);
        Reservation r = cell.tryReserve();
        r.activate();
        assertTrue(r.cancel());
        assertEquals(Reservation.State.CANCELLED, r.state());
        assertEquals(0, cell.inFlight());
        assertEquals(0, cell.active());
    }

    @Test
    void repeatedReleaseAndCancelAreNoOpsReturningFalse() {
        CapacityCell cell = new CapacityCell(3);
        Reservation other = cell.tryReserve(); // a second holder must not be released by the repeats
        Reservation r = cell.tryReserve();
        r.activate();
        assertTrue(r.release());
        for (int i = 0; i < 3; i++) {
            assertFalse(r.release());
            assertFalse(r.cancel());
        }
        assertEquals(Reservation.State.RELEASED, r.state(), "the first ending sticks");
        assertEquals(1, cell.inFlight());
        assertEquals(0, cell.active());

        Reservation c = cell.tryReserve();
        assertTrue(c.cancel());
        assertFalse(c.cancel());
        assertFalse(c.release());
        assertEquals(Reservation.State.CANCELLED, c.state());
        assertEquals(1, cell.inFlight());
        assertTrue(other.isHeld());
    }

    /**
     * Release (the relay ended), cancel (a timeout fired) and activate (the upstream connected) race on
     * the same reservation, round after round: exactly one ending wins and the cell's counts return to zero.
     */
    @Test
    @Timeout(20)
    void concurrentReleaseAndCancelReleaseExactlyOnce() throws Exception {
        int rounds = 20_000;
        CapacityCell cell = new CapacityCell(1);
        CyclicBarrier barrier = new CyclicBarrier(4); // three racers + this thread
        AtomicReference<Reservation> current = new AtomicReference<>();
        AtomicInteger releaseWins = new AtomicInteger();
        AtomicInteger cancelWins = new AtomicInteger();
        AtomicInteger activateWins = new AtomicInteger();
        AtomicInteger negativeActive = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            int role = t;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < rounds; i++) {
                        barrier.await(10, TimeUnit.SECONDS); // round start: the reservation is set
                        Reservation r = current.get();
                        switch (role) {
                            case 0 -> {
                                if (r.release()) {
                                    releaseWins.incrementAndGet();
                                }
                            }
                            case 1 -> {
                                if (r.cancel()) {
                                    cancelWins.incrementAndGet();
                                }
                            }
                            default -> {
                                if (r.activate()) {
                                    activateWins.incrementAndGet();
                                }
                            }
                        }
                        if (cell.active() < 0) {
                            negativeActive.incrementAndGet();
                        }
                        barrier.await(10, TimeUnit.SECONDS); // round end
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        for (int i = 0; i < rounds; i++) {
            Reservation r = cell.tryReserve();
            if (r == null) {
                throw new AssertionError("round " + i + ": capacity leaked, " + cell);
            }
            current.set(r);
            barrier.await(10, TimeUnit.SECONDS);
            barrier.await(10, TimeUnit.SECONDS);
            if (r.isHeld() || cell.inFlight() != 0 || cell.active() != 0) {
                throw new AssertionError("round " + i + ": " + r.state() + " " + cell);
            }
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals(rounds, releaseWins.get() + cancelWins.get(), "exactly one ending per reservation");
        assertTrue(
                releaseWins.get() > 0 && cancelWins.get() > 0,
                "both sides won sometimes: " + releaseWins.get() + "/" + cancelWins.get());
        assertTrue(activateWins.get() > 0, "activation raced in too");
        assertEquals(0, cell.inFlight());
        assertEquals(0, cell.active());
        assertEquals(0, negativeActive.get(), "active count observed below zero");
    }
}
