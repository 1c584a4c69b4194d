package dev.proxypool.core.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkerCapacityTest {

    @ParameterizedTest(name = "peak {0}, worker {1}, util {2}, spares {3} -> {4}")
    @CsvSource({
        "100000, 12000, 0.6, 2, 16", // ceil(13.89) + 2 (issue's example)
        "100000, 12500, 0.8, 0, 10", // exact quotient is not rounded up
        "1, 1000, 1.0, 0, 1",
        "100000, 12000, 1.0, 1, 10", // ceil(8.33) + 1
    })
    void reproducesTheFormula(double peak, double worker, double util, int spares, long expected) {
        assertEquals(expected, new WorkerCapacity(peak, worker, util, spares).requiredWorkers());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = ';',
            value = {
                "peak-qps;0;1000;0.5;0",
                "measured-worker-qps;1000;0;0.5;0",
                "utilization;1000;1000;0;0",
                "utilization;1000;1000;1.5;0",
                "spares;1000;1000;0.5;-1",
            })
    void rejectsBadInputNamingTheKey(String key, double peak, double worker, double util, int spares) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new WorkerCapacity(peak, worker, util, spares));
        assertTrue(e.getMessage().startsWith(key), e.getMessage());
    }
}
