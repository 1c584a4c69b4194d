package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** curl (a real, independent client) through the gateway: plain HTTP, CONNECT to TLS, proxy auth. */
class GatewayCurlTest {

    private static TestOrigin origin;
    private static TestOrigin tlsOrigin;
    private static SelfSignedTls tls;
    private static DirectEngine engine;
    private static GatewayFixture gw;
    private static GatewayFixture authGw;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        tls = SelfSignedTls.create(dir);
        origin = TestOrigin.http();
        tlsOrigin = TestOrigin.https(tls.server);
        engine = new DirectEngine();
        gw = new GatewayFixture(engine);
        authGw =
                new GatewayFixture(engine, ProxyAuthenticator.basic(Map.of("alice", "wonder")), GatewayConfig.DEFAULTS);
    }

    @AfterAll
    static void stop() {
        gw.close();
        authGw.close();
        origin.close();
        tlsOrigin.close();
    }

    /** Runs curl; returns [exit code, stdout, stderr]. */
    private static String[] curl(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/curl", "-sS", "--max-time", "20", "--noproxy", ""));
        cmd.addAll(List.of(args));
        java.io.File err = java.io.File.createTempFile("curl", ".err");
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectInput(new java.io.File("/dev/null"))
                    .redirectError(err)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "curl finished");
            return new String[] {
                Integer.toString(p.exitValue()),
                out,
                java.nio.file.Files.readString(err.toPath(), StandardCharsets.UTF_8)
            };
        } finally {
            err.delete();
        }
    }

    private String proxy(GatewayFixture g) {
        return "http://127.0.0.1:" + g.port();
    }

    @Test
    void plainHttpGetIncludingHeaders() throws Exception {
        String[] r = curl("-i", "-x", proxy(gw), origin.uri("/hello").toString());
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].startsWith("HTTP/1.1 200"), r[1]);
        assertTrue(r[1].contains("X-ProxyPool-Proxy: direct"), r[1]);
        assertTrue(r[1].endsWith("hello"), r[1]);
        GatewayFixture.awaitInFlightZero(engine);
    }

    @Test
    void plainHttpPostAndKeepAliveReuse() throws Exception {
        String[] r = curl(
                "-v",
                "-x",
                proxy(gw),
                "--data-binary",
                "from curl",
                origin.uri("/echo").toString(),
                "--next",
                "-x",
                proxy(gw),
                origin.uri("/hello").toString());
        assertEquals("0", r[0], r[2]);
        assertEquals("from curlhello", r[1]);
        assertTrue(r[2].contains("Re-using existing connection"), r[2]);
    }

    @Test
    void httpsThroughConnectWithVerifiedCertificate() throws Exception {
        String[] r = curl(
                "-v",
                "--cacert",
                tls.pem.toString(),
                "-x",
                proxy(gw),
                tlsOrigin.uri("/hello").toString());
        assertEquals("0", r[0], r[2]);
        assertEquals("hello", r[1]);
        assertTrue(r[2].contains("HTTP/1.1 200 Connection established"), r[2]);
        assertTrue(r[2].contains("X-ProxyPool-Proxy: direct"), r[2]);
        assertTrue(r[2].contains("X-ProxyPool-Attempts: 1"), r[2]);
        GatewayFixture.awaitInFlightZero(engine);
    }

    @Test
    void proxyTunnelForPlainHttp() throws Exception {
        String[] r = curl("-p", "-x", proxy(gw), origin.uri("/hello").toString());
        assertEquals("0", r[0], r[2]);
        assertEquals("hello", r[1]);
    }

    @Test
    void proxyAuthenticationWithCurl() throws Exception {
        String[] denied = curl("-i", "-x", proxy(authGw), origin.uri("/hello").toString());
        assertTrue(denied[1].startsWith("HTTP/1.1 407"), denied[1]);
        assertTrue(denied[1].contains("Proxy-Authenticate: Basic realm=\"proxypool\""), denied[1]);
        String[] ok = curl(
                "-x", proxy(authGw), "-U", "alice:wonder", origin.uri("/hello").toString());
        assertEquals("hello", ok[1], ok[2]);
        String[] tunnelDenied = curl(
                "-v",
                "--cacert",
                tls.pem.toString(),
                "-x",
                proxy(authGw),
                tlsOrigin.uri("/hello").toString());
        assertTrue(tunnelDenied[2].contains("407"), tunnelDenied[2]);
        String[] tunnelOk = curl(
                "--cacert",
                tls.pem.toString(),
                "-x",
                proxy(authGw),
                "-U",
                "alice:wonder",
                tlsOrigin.uri("/hello").toString());
        assertEquals("hello", tunnelOk[1], tunnelOk[2]);
    }
}
