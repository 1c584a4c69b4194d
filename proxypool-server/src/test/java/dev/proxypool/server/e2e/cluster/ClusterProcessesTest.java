package dev.proxypool.server.e2e.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.server.e2e.redis.RedisE2e;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One control process and two worker processes on loopback, sharing the machine's Redis under a
 * unique key prefix: a change published by the control process reaches both workers' engines
 * (propagation measured from the test's command to each worker's report), and killing the control
 * process leaves both workers serving their last snapshot.
 */
@Tag("slow")
class ClusterProcessesTest {

    private static final int REDIS_PORT = 6379;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int POOL = 10_000;

    private final String prefix = "pptest:e2e-cluster:" + UUID.randomUUID() + ":";

    @AfterEach
    void deleteKeys() {
        RedisE2e.deleteKeys(REDIS_PORT, prefix);
    }

    @Test
    @Timeout(60)
    void aChangeReachesBothWorkersAndTheyOutliveTheControlPlane() throws Exception {
        String port = Integer.toString(REDIS_PORT);
        try (ChildJvm control =
                        ChildJvm.start("control", ControlProcessMain.class, port, prefix, Integer.toString(POOL));
                ChildJvm w1 = ChildJvm.start("worker-1", WorkerProcessMain.class, port, prefix, "worker-1");
                ChildJvm w2 = ChildJvm.start("worker-2", WorkerProcessMain.class, port, prefix, "worker-2")) {
            long first = Long.parseLong(
                    control.await(0, l -> l.startsWith("ready "), WAIT).text().substring(6));
            for (ChildJvm w : List.of(w1, w2)) {
                String applied = w.await(0, l -> l.startsWith("applied ") && version(l) >= first, WAIT)
                        .text();
                assertEquals(POOL, Integer.parseInt(applied.split(" ")[2]), applied);
            }

            List<Double> millis = new ArrayList<>();
            long version = first;
            for (int i = 0; i < 20; i++) {
                int m1 = w1.mark();
                int m2 = w2.mark();
                int mc = control.mark();
                long t0 = System.nanoTime();
                control.send("change 1");
                long v = version(
                        control.await(mc, l -> l.startsWith("published "), WAIT).text());
                assertTrue(v > version, "versions increase: " + v + " after " + version);
                version = v;
                long a = w1.await(m1, l -> l.startsWith("applied ") && version(l) >= v, WAIT)
                        .atNanos();
                long b = w2.await(m2, l -> l.startsWith("applied ") && version(l) >= v, WAIT)
                        .atNanos();
                millis.add((Math.max(a, b) - t0) / 1e6);
            }
            millis.sort(null);
            System.out.printf(
                    Locale.ROOT,
                    "cluster propagation (3 JVMs, %,d proxies, one-proxy change, command -> both"
                            + " workers applied, incl. stdio): P50 %.1f ms, P90 %.1f ms, max %.1f ms%n",
                    POOL,
                    millis.get(millis.size() / 2),
                    millis.get(millis.size() * 9 / 10),
                    millis.getLast());

            // the control plane dies: workers keep their last snapshot and keep serving it
            control.kill();
            assertFalse(control.isAlive());
            for (ChildJvm w : List.of(w1, w2)) {
                int m = w.mark();
                w.send("acquire");
                String lease = w.await(m, l -> l.startsWith("lease ") || l.startsWith("none "), WAIT)
                        .text();
                assertTrue(lease.startsWith("lease p-"), w + " still serves: " + lease);
                assertTrue(lease.endsWith(" limit 5"), "each of 2 workers holds 10 / 2 of the proxy: " + lease);
                m = w.mark();
                w.send("status");
                String status = w.await(m, l -> l.startsWith("status "), WAIT).text();
                assertTrue(
                        status.contains("version=" + version + " ")
                                && status.contains("engine=" + POOL)
                                && status.contains("within=true"),
                        status);
            }
        }
    }

    private static long version(String line) {
        return Long.parseLong(line.split(" ")[1]);
    }
}
