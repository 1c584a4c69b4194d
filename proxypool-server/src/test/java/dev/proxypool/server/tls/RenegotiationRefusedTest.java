package dev.proxypool.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.tls.PemFiles;
import dev.proxypool.server.GatewayServer;
import dev.proxypool.server.gateway.DirectEngine;
import dev.proxypool.testkit.TestCertificateAuthority;
import dev.proxypool.testkit.TestCertificateAuthority.Issued;
import dev.proxypool.testkit.TestCertificateAuthority.KeyType;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client-initiated TLS renegotiation on the REST listener ({@code server.apiTls}) is refused: with TLS 1.2
 * forced (TLS 1.3 has no renegotiation), a second {@code startHandshake()} on a connection that already
 * served a request ends the connection at once, and no request is served on it afterwards. (Before, the
 * server took the new ClientHello and the connection hung open.)
 */
class RenegotiationRefusedTest {

    @TempDir
    Path dir;

    private GatewayServer server;
    private SSLContext trust;

    @BeforeEach
    void start() {
        TestCertificateAuthority ca = TestCertificateAuthority.create(dir);
        Issued cert = ca.issue("api", KeyType.EC, 4001);
        trust = PemFiles.trusting(ca.caFile());
        server = GatewayServer.builder(new DirectEngine())
                .gatewayPort(0)
                .apiPort(0)
                .apiTls(ListenerTls.of("server.apiTls", new ProxyPoolConfig.TlsFiles(cert.certFile(), cert.keyFile())))
                .start();
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    private static final byte[] GET =
            "GET /v1/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** One response (head and Content-Length body), or null when the connection ended first. */
    private static String response(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                return null;
            }
            head.append((char) c);
        }
        int length = Integer.parseInt(head.toString().replaceAll("(?is).*content-length: *(\\d+).*", "$1"));
        in.readNBytes(length);
        return head.toString();
    }

    @Test
    void aSecondHandshakeFromTheClientEndsTheConnectionAndNothingMoreIsServed() throws Exception {
        try (SSLSocket s = (SSLSocket) trust.getSocketFactory().createSocket("127.0.0.1", server.apiPort())) {
            s.setSoTimeout(5_000);
            s.setEnabledProtocols(new String[] {"TLSv1.2"});
            s.startHandshake();
            assertEquals("TLSv1.2", s.getSession().getProtocol());
            s.getOutputStream().write(GET);
            String first = response(s.getInputStream());
            assertTrue(first != null && first.startsWith("HTTP/1.1 200 "), "served before: " + first);

            boolean served;
            try {
                s.startHandshake(); // the client asks to renegotiate
                s.getOutputStream().write(GET);
                String after = response(s.getInputStream());
                served = after != null && after.startsWith("HTTP/1.1 200 ");
            } catch (SocketTimeoutException hung) {
                // the old code: the server took the new ClientHello and the connection then hung, held open
                throw new AssertionError("the renegotiation was neither refused nor answered within 5 s", hung);
            } catch (IOException refused) {
                // refused at once: a handshake failure, a close_notify in the handshake, a reset or end of stream
                served = false;
            }
            assertFalse(served, "a request was served on a renegotiated connection");
        }
        // the listener itself goes on serving TLS 1.2 clients
        try (SSLSocket s = (SSLSocket) trust.getSocketFactory().createSocket("127.0.0.1", server.apiPort())) {
            s.setSoTimeout(5_000);
            s.setEnabledProtocols(new String[] {"TLSv1.2"});
            s.getOutputStream().write(GET);
            String again = response(s.getInputStream());
            assertTrue(again != null && again.startsWith("HTTP/1.1 200 "), "served: " + again);
        }
    }
}
