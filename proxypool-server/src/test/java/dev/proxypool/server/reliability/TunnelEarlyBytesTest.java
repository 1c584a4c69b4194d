package dev.proxypool.server.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.testkit.RawHttp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway reads an upstream proxy's {@code CONNECT} reply in large reads: when the proxy sends
 * its {@code 200} and the target's first bytes (a server-first protocol: SSH, SMTP) in one segment,
 * the client still gets every byte, in order, right after the gateway's own {@code 200}; and many
 * tunnels one after another (recycled connection and relay buffers) never show a byte of another.
 */
@Timeout(60)
class TunnelEarlyBytesTest {

    @TempDir
    static Path dir;

    @Test
    void bannerInTheSameSegmentAsTheProxyReplyReachesTheClient() throws Exception {
        try (ServerSocket proxy = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                UpstreamBench bench =
                        new UpstreamBench(dir, "", List.of(UpstreamBench.key(Protocol.HTTP, proxy.getLocalPort())))) {
            Thread.ofVirtual().start(() -> serveServerFirstTunnels(proxy));
            for (int i = 0; i < 40; i++) {
                try (Socket s = bench.client()) {
                    InputStream in = RawHttp.buffered(s);
                    RawHttp.Response r =
                            RawHttp.exchange(in, s.getOutputStream(), UpstreamBench.connect("example.com:22"), true);
                    assertEquals(200, r.status());
                    assertEquals("SSH-2.0-fake-" + i + "\r\n", readLine(in), "the banner, unchanged, first");
                    String ping = "ping-" + i + "-" + "x".repeat(i * 97) + "\n";
                    s.getOutputStream().write(ping.getBytes(StandardCharsets.US_ASCII));
                    assertEquals("got " + ping, readLine(in), "the tunnel relays both ways after the banner");
                }
            }
            bench.assertCapacityBackToZero();
        }
    }

    /** A raw HTTP proxy: CONNECT, then {@code 200 + banner} in one write, then one echoed line per tunnel. */
    private static void serveServerFirstTunnels(ServerSocket proxy) {
        for (int i = 0; !proxy.isClosed(); i++) {
            try (Socket s = proxy.accept()) {
                s.setTcpNoDelay(true);
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                readHead(in);
                out.write(("HTTP/1.1 200 Connection established\r\nVia: 1.1 fake\r\n\r\nSSH-2.0-fake-" + i + "\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String line = readLine(in);
                out.write(("got " + line).getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException e) {
                // closed at the end of the test, or a client gone: the next accept decides
            }
        }
    }

    private static void readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (!b.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("closed mid-head");
            }
            b.write(c);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            b.write(c);
            if (c == '\n') {
                break;
            }
        }
        return b.toString(StandardCharsets.US_ASCII);
    }
}
