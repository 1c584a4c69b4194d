package dev.proxypool.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Protocol;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class NotAProxyTest {

    @Test
    void garbageSpeaksFirstAndAnswersJunk() throws Exception {
        try (NotAProxy port = NotAProxy.start(NotAProxy.Behaviour.GARBAGE);
                Socket s = new Socket(port.host(), port.port())) {
            byte[] banner = s.getInputStream().readNBytes(7);
            assertEquals("SSH-2.0", new String(banner, StandardCharsets.US_ASCII));
            assertEquals(Protocol.SOCKS5, port.asProxy(Protocol.SOCKS5).protocol());
        }
    }

    @Test
    void http200AnswersAnythingWithAPageAndCloses() throws Exception {
        try (NotAProxy port = NotAProxy.start(NotAProxy.Behaviour.HTTP_200);
                Socket s = new Socket(port.host(), port.port())) {
            RawHttp.Response r = RawHttp.exchange(
                    s.getInputStream(), s.getOutputStream(), "CONNECT 127.0.0.1:443 HTTP/1.1\r\n\r\n", false);
            assertEquals(200, r.status());
            assertTrue(r.bodyText().contains("not a proxy"));
            assertEquals(-1, s.getInputStream().read());
        }
    }

    @Test
    void closeAcceptsAndClosesAtOnce() throws Exception {
        try (NotAProxy port = NotAProxy.start(NotAProxy.Behaviour.CLOSE);
                Socket s = new Socket(port.host(), port.port())) {
            assertEquals(-1, s.getInputStream().read());
            assertTrue(port.awaitIdle(Duration.ofSeconds(5)));
            assertEquals(1, port.acceptedConnections());
        }
    }

    @Test
    void closedPortRefusesAndBlackholeTimesOut() throws Exception {
        int closed = TestPorts.closedPort();
        assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", closed).close());
        try (TestPorts.Blackhole hole = TestPorts.blackhole();
                Socket s = new Socket()) {
            assertThrows(
                    SocketTimeoutException.class,
                    () -> s.connect(new java.net.InetSocketAddress(hole.host(), hole.port()), 300));
        }
    }
}
