package dev.proxypool.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigException;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.tls.PemFiles;
import dev.proxypool.server.GatewayServer;
import dev.proxypool.server.gateway.DirectEngine;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.TestCertificateAuthority;
import dev.proxypool.testkit.TestCertificateAuthority.Issued;
import dev.proxypool.testkit.TestCertificateAuthority.KeyType;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code server.gatewayTls} and {@code server.apiTls} with real clients: curl through the gateway as
 * an HTTPS proxy (plain HTTP and CONNECT inside TLS), the JDK HttpClient against the https API,
 * certificate rotation seen by new handshakes, a bad rotation that keeps the old certificate, the
 * protocol and suite floor, and the errors for bad files.
 */
@Tag("slow")
class ListenerTlsTest {

    @TempDir
    static Path dir;

    static TestCertificateAuthority ca;
    static Issued gatewayCert;
    static Issued apiCert;
    static ListenerTls gatewayTls;
    static ListenerTls apiTls;
    static GatewayServer server;
    static FakeOrigin origin;
    static FakeOrigin tlsOrigin;

    @BeforeAll
    static void start() {
        ca = TestCertificateAuthority.create(dir);
        gatewayCert = ca.issue("gateway", KeyType.RSA, 1001);
        apiCert = ca.issue("api", KeyType.EC, 2001);
        gatewayTls = ListenerTls.of(
                "server.gatewayTls", new ProxyPoolConfig.TlsFiles(gatewayCert.certFile(), gatewayCert.keyFile()));
        apiTls = ListenerTls.of("server.apiTls", new ProxyPoolConfig.TlsFiles(apiCert.certFile(), apiCert.keyFile()));
        server = GatewayServer.builder(new DirectEngine())
                .gatewayPort(0)
                .apiPort(0)
                .gatewayTls(gatewayTls)
                .apiTls(apiTls)
                .start();
        origin = FakeOrigin.start();
        tlsOrigin = FakeOrigin.builder().tls().start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.stop();
        }
        if (origin != null) {
            origin.close();
        }
        if (tlsOrigin != null) {
            tlsOrigin.close();
        }
    }

    private static String proxyUrl() {
        return "https://127.0.0.1:" + server.gatewayPort();
    }

    /** Runs curl; returns [exit code, stdout, stderr]. */
    private static String[] curl(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/curl", "-sS", "--max-time", "20", "--noproxy", ""));
        cmd.addAll(List.of(args));
        File err = Files.createTempFile(dir, "curl", ".err").toFile();
        Process p = new ProcessBuilder(cmd)
                .redirectInput(new File("/dev/null"))
                .redirectError(err)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "curl finished");
        return new String[] {Integer.toString(p.exitValue()), out, Files.readString(err.toPath())};
    }

    @Test
    void curlUsesTheGatewayAsAnHttpsProxyForPlainHttp() throws Exception {
        String[] r =
                curl("-i", "--proxy", proxyUrl(), "--proxy-cacert", ca.caFile().toString(), origin.url("/echo"));
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].startsWith("HTTP/1.1 200"), r[1]);
        assertTrue(r[1].contains("X-ProxyPool-Proxy: direct"), r[1]);
        assertTrue(r[1].contains("\"ip\": \"127.0.0.1\""), r[1]);
    }

    @Test
    void curlTunnelsConnectInsideTlsToAnHttpsOrigin() throws Exception {
        // -k is for the origin's self-signed test certificate; the proxy's certificate is verified
        String[] r = curl(
                "-k", "-v", "--proxy", proxyUrl(), "--proxy-cacert", ca.caFile().toString(), tlsOrigin.url("/echo"));
        assertEquals("0", r[0], r[2]);
        assertTrue(r[2].contains("CONNECT 127.0.0.1:"), r[2]);
        assertTrue(r[1].contains("\"ip\": \"127.0.0.1\""), r[1]);
    }

    @Test
    void curlRefusesTheProxyWithoutTheCa() throws Exception {
        String[] r = curl("--proxy", proxyUrl(), origin.url("/echo"));
        assertEquals("60", r[0], "curl: the proxy's certificate is not trusted: " + r[2]);
    }

    @Test
    void plainHttpOnTheTlsGatewayPortIsClosedAndTheListenerKeepsServing() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.gatewayPort())) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write("GET http://127.0.0.1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] junk = in.readNBytes(4096);
            assertFalse(new String(junk, StandardCharsets.ISO_8859_1).contains("HTTP/1.1 200"));
        }
        assertEquals(BigInteger.valueOf(1001), handshake(server.gatewayPort()).getSerialNumber());
    }

    @Test
    void jdkHttpClientReachesTheHttpsApi() throws Exception {
        SSLContext trust = PemFiles.trusting(ca.caFile());
        try (HttpClient client = HttpClient.newBuilder().sslContext(trust).build()) {
            HttpResponse<String> echo = client.send(
                    HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.apiPort() + "/v1/echo"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, echo.statusCode());
            assertTrue(echo.body().startsWith("{\"ip\":\"127.0.0.1\""), echo.body());
            String protocol = echo.sslSession().orElseThrow().getProtocol();
            assertTrue(protocol.equals("TLSv1.3") || protocol.equals("TLSv1.2"), protocol);
            HttpResponse<String> health = client.send(
                    HttpRequest.newBuilder(URI.create("https://localhost:" + server.apiPort() + "/observe/health"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, health.statusCode(), health.body());
        }
        // and plain http on the TLS API port does not get an answer
        try (HttpClient plain =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            assertThrows(
                    IOException.class,
                    () -> plain.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/echo"))
                                    .timeout(Duration.ofSeconds(5))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString()));
        }
    }

    @Test
    void weakSuitesAndOldProtocolsAreRefused() throws Exception {
        assertTrue(
                gatewayTls.protocols().equals(List.of("TLSv1.3", "TLSv1.2")),
                gatewayTls.protocols().toString());
        assertFalse(gatewayTls.cipherSuites().isEmpty());
        for (String suite : gatewayTls.cipherSuites()) {
            assertFalse(suite.contains("_CBC_") || suite.startsWith("TLS_RSA_") || suite.contains("_DHE_"), suite);
        }
        for (int port : new int[] {server.gatewayPort(), server.apiPort()}) {
            SSLContext trust = PemFiles.trusting(ca.caFile());
            try (SSLSocket s = (SSLSocket) trust.getSocketFactory().createSocket("127.0.0.1", port)) {
                s.setSoTimeout(5000);
                s.setEnabledProtocols(new String[] {"TLSv1.2"});
                s.setEnabledCipherSuites(
                        new String[] {"TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256"
                        });
                assertThrows(SSLHandshakeException.class, s::startHandshake, "a CBC-only client on port " + port);
            }
        }
        // a TLS 1.2 client with a modern suite is served
        SSLContext trust = PemFiles.trusting(ca.caFile());
        try (SSLSocket s = (SSLSocket) trust.getSocketFactory().createSocket("127.0.0.1", server.gatewayPort())) {
            s.setSoTimeout(5000);
            s.setEnabledProtocols(new String[] {"TLSv1.2"});
            s.startHandshake();
            assertEquals("TLSv1.2", s.getSession().getProtocol());
            assertTrue(
                    s.getSession().getCipherSuite().startsWith("TLS_ECDHE_"),
                    s.getSession().getCipherSuite());
        }
    }

    /** A fresh handshake (new context: no session to resume); returns the leaf the server presented. */
    static X509Certificate handshake(int port) throws Exception {
        SSLContext trust = PemFiles.trusting(ca.caFile());
        try (SSLSocket s = (SSLSocket) trust.getSocketFactory().createSocket("127.0.0.1", port)) {
            s.setSoTimeout(5000);
            s.startHandshake();
            return (X509Certificate) s.getSession().getPeerCertificates()[0];
        }
    }

    @Test
    void rotationReachesNewHandshakesAndABadFileKeepsTheOldCertificate() throws Exception {
        Path rdir = Files.createDirectories(dir.resolve("rotation"));
        TestCertificateAuthority rca = TestCertificateAuthority.create(rdir);
        Issued live = rca.issue("live", KeyType.RSA, 5001);
        ListenerTls tls =
                ListenerTls.of("server.gatewayTls", new ProxyPoolConfig.TlsFiles(live.certFile(), live.keyFile()));
        GatewayServer s = GatewayServer.builder(new DirectEngine())
                .gatewayPort(0)
                .apiPort(0)
                .gatewayTls(tls)
                .apiTls(ListenerTls.of("server.apiTls", new ProxyPoolConfig.TlsFiles(live.certFile(), live.keyFile())))
                .start();
        SSLContext trust = PemFiles.trusting(rca.caFile());
        try {
            assertEquals(BigInteger.valueOf(5001), serial(trust, s.gatewayPort()));
            assertEquals(BigInteger.valueOf(5001), serial(trust, s.apiPort()));

            // rotate to an EC certificate: the next handshakes on both listeners see it, no restart
            TestCertificateAuthority.rotate(rca.issue("next", KeyType.EC, 5002), live);
            Await.atMost(Duration.ofSeconds(10))
                    .until(
                            "the gateway presents serial 5002",
                            () -> serial(trust, s.gatewayPort()),
                            BigInteger.valueOf(5002)::equals);
            Await.atMost(Duration.ofSeconds(10))
                    .until(
                            "the API presents serial 5002",
                            () -> serial(trust, s.apiPort()),
                            BigInteger.valueOf(5002)::equals);
            assertEquals(1, tls.reloads());

            // a broken certificate file: refused, logged, the previous certificate stays in service
            Files.writeString(
                    live.certFile(), "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n");
            assertEquals(BigInteger.valueOf(5002), serial(trust, s.gatewayPort()));
            assertEquals(BigInteger.valueOf(5002), serial(trust, s.gatewayPort()));
            assertEquals(1, tls.reloadFailures(), "one failure per changed file, not per handshake");
            assertEquals(1, tls.reloads());

            // a key of another certificate: refused too
            Issued other = rca.issue("other", KeyType.RSA, 5003);
            Files.copy(other.certFile(), live.certFile(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            assertEquals(BigInteger.valueOf(5002), serial(trust, s.gatewayPort()));
            assertEquals(2, tls.reloadFailures());

            // the matching key arrives: served
            Files.copy(other.keyFile(), live.keyFile(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            assertEquals(BigInteger.valueOf(5003), serial(trust, s.gatewayPort()));
            assertEquals(2, tls.reloads());

            // and the gateway still proxies over the rotated certificate
            String[] r = curl(
                    "--proxy",
                    "https://127.0.0.1:" + s.gatewayPort(),
                    "--proxy-cacert",
                    rca.caFile().toString(),
                    origin.url("/echo"));
            assertEquals("0", r[0], r[2]);
        } finally {
            s.stop();
        }
    }

    private static BigInteger serial(SSLContext trust, int port) throws IOException {
        try (SSLSocket sock = (SSLSocket) trust.getSocketFactory().createSocket("127.0.0.1", port)) {
            sock.setSoTimeout(5000);
            sock.startHandshake();
            return ((X509Certificate) sock.getSession().getPeerCertificates()[0]).getSerialNumber();
        }
    }

    @Test
    void badFilesAreConfigErrorsNamingTheKeyAndTheFile() throws Exception {
        Path missing = dir.resolve("nope.pem");
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> ListenerTls.of(
                        "server.gatewayTls", new ProxyPoolConfig.TlsFiles(missing, gatewayCert.keyFile())));
        assertTrue(e.getMessage().contains("server.gatewayTls.certFile"), e.getMessage());
        assertTrue(
                e.getMessage().contains(missing.toString()) && e.getMessage().contains("does not exist"),
                e.getMessage());

        ConfigException wrongKey = assertThrows(
                ConfigException.class,
                () -> ListenerTls.of(
                        "server.apiTls", new ProxyPoolConfig.TlsFiles(gatewayCert.certFile(), apiCert.keyFile())));
        assertTrue(wrongKey.getMessage().contains("server.apiTls.keyFile"), wrongKey.getMessage());
        assertTrue(wrongKey.getMessage().contains("does not hold the private key"), wrongKey.getMessage());
        assertNotEquals(-1, wrongKey.getMessage().indexOf(apiCert.keyFile().toString()));
    }
}
