package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.testkit.Await;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Many clients at once, with keep-alive, bodies, tunnels, and clients that vanish mid-response:
 * afterwards no capacity is held (engine in-flight 0) and no connection is left open.
 */
class GatewayStressTest {

    @Test
    void capacityNeverLeaksUnderConcurrentMixedTrafficWithAborts() throws Exception {
        try (TestOrigin origin = TestOrigin.http()) {
            DirectEngine engine = new DirectEngine();
            GatewayFixture gw = new GatewayFixture(engine);
            AtomicInteger ok = new AtomicInteger();
            AtomicInteger failures = new AtomicInteger();
            long deadline = System.nanoTime() + Duration.ofSeconds(8).toNanos();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                threads.add(Thread.ofVirtual().start(() -> {
                    ThreadLocalRandom rnd = ThreadLocalRandom.current();
                    for (int i = 0; i < 60 && System.nanoTime() < deadline; i++) {
                        try (RawClient c = gw.client()) {
                            switch (rnd.nextInt(4)) {
                                case 0 -> { // keep-alive burst
                                    for (int k = 0; k < 3; k++) {
                                        assertEquals(
                                                "hello",
                                                c.send("GET " + origin.uri("/hello") + " HTTP/1.1\r\nHost: x\r\n\r\n")
                                                        .read()
                                                        .text());
                                    }
                                }
                                case 1 ->
                                    assertEquals(
                                            "xyz",
                                            c.send("POST " + origin.uri("/echo")
                                                            + " HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nxyz")
                                                    .read()
                                                    .text());
                                case 2 -> { // abort in the middle of a large response
                                    c.send("GET " + origin.uri("/stream?bytes=5000000")
                                            + " HTTP/1.1\r\nHost: x\r\n\r\n");
                                    c.in.readNBytes(10_000);
                                }
                                default -> {
                                    assertEquals(
                                            200,
                                            c.send("CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n")
                                                    .read(true)
                                                    .status());
                                    assertEquals(
                                            "hello",
                                            c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                                                    .read()
                                                    .text());
                                }
                            }
                            ok.incrementAndGet();
                        } catch (IOException | AssertionError e) {
                            failures.incrementAndGet();
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(0, failures.get(), "failed client iterations");
            assertTrue(ok.get() > 50, "iterations done: " + ok.get());
            GatewayFixture.awaitInFlightZero(engine);
            Await.atMost(Duration.ofSeconds(5))
                    .until("every client connection closed", gw.gateway::openConnections, n -> n == 0);
            gw.close();
        }
    }
}
