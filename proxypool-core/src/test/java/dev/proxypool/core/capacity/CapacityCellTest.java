package dev.proxypool.core.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CapacityCellTest {

    @ParameterizedTest(name = "limit {0}")
    @ValueSource(ints = {1, 2, 7})
    void neverGrantsMoreThanTheLimit(int limit) {
        CapacityCell cell = new CapacityCell(limit);
        List<Reservation> held = new ArrayList<>();
        for (int i = 0; i < limit; i++) {
            Reservation r = cell.tryReserve();
            assertNotNull(r, "unit " + i);
            held.add(r);
            assertEquals(i + 1, cell.inFlight());
            assertEquals(limit - i - 1, cell.available());
        }
        for (int i = 0; i < 10; i++) {
            assertNull(cell.tryReserve());
            assertFalse(cell.tryAcquire());
        }
        assertEquals(limit, cell.inFlight());
        held.getFirst().release();
        assertNotNull(cell.tryReserve(), "a released unit is free again");
        assertNull(cell.tryReserve());
    }

    @Test
    void rawAcquireAndReleasePair() {
        CapacityCell cell = new CapacityCell(2);
        assertTrue(cell.tryAcquire());
        assertTrue(cell.tryAcquire());
        assertFalse(cell.tryAcquire());
        cell.releaseAcquired();
        cell.releaseAcquired();
        assertEquals(0, cell.inFlight());
    }

    @Test
    void releasingMoreThanAcquiredIsABugAndLeavesTheCountAtZero() {
        CapacityCell cell = new CapacityCell(1);
        IllegalStateException e = assertThrows(IllegalStateException.class, cell::releaseAcquired);
        assertEquals("capacity released more often than acquired", e.getMessage());
        assertEquals(0, cell.inFlight());
        assertTrue(cell.tryAcquire());
        assertFalse(cell.tryAcquire(), "the failed release did not leave a phantom free unit");
    }

    @Test
    void loweringTheLimitWhileHeldRevokesNothingAndAdmitsOnlyBelowTheNewLimit() {
        CapacityCell cell = new CapacityCell(5);
        List<Reservation> held = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            held.add(cell.tryReserve());
        }
        cell.setLimit(2);
        assertEquals(2, cell.limit());
        assertEquals(5, cell.inFlight(), "holders keep their units");
        assertTrue(held.stream().allMatch(Reservation::isHeld));
        assertEquals(0, cell.available());

        held.removeFirst().release();
        held.removeFirst().release();
        held.removeFirst().release();
        assertEquals(2, cell.inFlight());
        assertNull(cell.tryReserve(), "at the new limit: still full");
        held.removeFirst().release();
        assertEquals(1, cell.inFlight());
        assertNotNull(cell.tryReserve(), "below the new limit: admits");
        assertNull(cell.tryReserve());
        assertEquals(2, cell.inFlight());

        cell.setLimit(4);
        assertNotNull(cell.tryReserve());
        assertNotNull(cell.tryReserve());
        assertNull(cell.tryReserve());
        assertEquals(4, cell.inFlight());
    }

    @ParameterizedTest(name = "limit {0}")
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void aLimitBelowOneIsRejectedNamingTheValue(int bad) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new CapacityCell(bad));
        assertEquals("capacity limit must be at least 1, got " + bad, e.getMessage());
        CapacityCell cell = new CapacityCell(3);
        assertThrows(IllegalArgumentException.class, () -> cell.setLimit(bad));
        assertEquals(3, cell.limit(), "a rejected limit changes nothing");
    }

    @Test
    void toStringShowsTheLedger() {
        CapacityCell cell = new CapacityCell(3);
        cell.tryReserve().activate();
        cell.tryReserve();
        assertEquals("CapacityCell[2/3, active=1]", cell.toString());
    }
}
