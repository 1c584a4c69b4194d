package dev.proxypool.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Many clients at once through every fake: every counter returns to zero, nothing crashed. */
class ConnectionLeakStressTest {

    private static final int CLIENTS = 48;
    private static final int ROUNDS = 4;

    @Test
    void countersReturnToZeroAfterConcurrentTunnelsThroughEveryProxy() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy http = FakeHttpProxy.start();
                FakeSocks4Proxy socks4 = FakeSocks4Proxy.start();
                FakeSocks5Proxy socks5 = FakeSocks5Proxy.start();
                ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int which = c % 3;
                done.add(pool.submit(() -> {
                    for (int r = 0; r < ROUNDS; r++) {
                        FakeServer proxy = which == 0 ? http : which == 1 ? socks4 : socks5;
                        try (Socket s = new Socket(proxy.host(), proxy.port())) {
                            switch (which) {
                                case 0 ->
                                    assertEquals(
                                            200,
                                            RawHttp.exchange(
                                                            s.getInputStream(),
                                                            s.getOutputStream(),
                                                            "CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n",
                                                            true)
                                                    .status());
                                case 1 -> assertEquals(90, SocksClient.socks4(s, "127.0.0.1", origin.port(), ""));
                                default -> {
                                    SocksClient.socks5Greeting(s, 0);
                                    assertEquals(0, SocksClient.socks5Connect(s, 1, "127.0.0.1", origin.port()));
                                }
                            }
                            assertEquals(200, SocksClient.echo(s, origin).status());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            for (FakeServer server : new FakeServer[] {origin, http, socks4, socks5}) {
                assertTrue(server.awaitIdle(Duration.ofSeconds(10)), server + " still has open connections");
                assertEquals(0, server.handlerErrors(), server + " handler errors");
            }
            assertEquals((long) CLIENTS * ROUNDS, origin.acceptedConnections());
            assertEquals((long) CLIENTS * ROUNDS, origin.requests());
            assertEquals(
                    http.acceptedConnections() + socks4.acceptedConnections() + socks5.acceptedConnections(),
                    origin.acceptedConnections());
        }
    }
}
