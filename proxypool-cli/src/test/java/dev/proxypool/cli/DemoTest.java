package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code proxypool demo}: the tour can be repeated, it cleans up after itself, and a busy port is named. */
@Tag("slow")
class DemoTest {

    private static final Pattern URL = Pattern.compile("\"url\"\\s*:\\s*\"([^\"]+)\"");

    @Test
    void repeatedExtractionsNeverDrainTheGateway() throws Exception {
        try (Demo demo = Demo.start(0, 0);
                HttpClient api = HttpClient.newHttpClient();
                HttpClient gateway = HttpClient.newBuilder()
                        .proxy(ProxySelector.of(
                                new InetSocketAddress("127.0.0.1", demo.server().gatewayPort())))
                        .build()) {
            String banner = demo.banner();
            assertTrue(banner.contains("Extraction is permanent"), banner);
            Matcher line = Pattern.compile("-d '(\\{\"count\": 1[^']*)' http://127.0.0.1:\\d+/v1/extractions")
                    .matcher(banner);
            assertTrue(line.find(), "the banner shows an extraction line: " + banner);
            String body = line.group(1);
            Set<String> urls = new HashSet<>();
            for (int i = 0; i < 12; i++) {
                HttpResponse<String> r = api.send(
                        HttpRequest.newBuilder(URI.create(
                                        "http://127.0.0.1:" + demo.server().apiPort() + "/v1/extractions"))
                                .header("Authorization", "Bearer demo-token-0123456789")
                                .timeout(Duration.ofSeconds(10))
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), "extraction " + i + ": " + r.body());
                Matcher m = URL.matcher(r.body());
                assertTrue(m.find(), "extraction " + i + " returned a proxy: " + r.body());
                urls.add(m.group(1));
                // the gateway keeps serving after every extraction
                HttpResponse<String> g = gateway.send(
                        HttpRequest.newBuilder(demo.origin().uri("/echo?after=" + i))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, g.statusCode(), "gateway request after extraction " + i + ": " + g.body());
            }
            assertEquals(12, urls.size(), "each extraction is a different proxy: " + urls);
            // an extracted session proxy works as printed
            String first = urls.iterator().next();
            URI proxy = URI.create(first);
            try (HttpClient through = HttpClient.newBuilder()
                    .proxy(ProxySelector.of(new InetSocketAddress(proxy.getHost(), proxy.getPort())))
                    .build()) {
                assertEquals(
                        200,
                        through.send(
                                        HttpRequest.newBuilder(demo.origin().uri("/echo"))
                                                .timeout(Duration.ofSeconds(10))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .statusCode());
            }
        }
    }

    /**
     * The banner's {@code curl -x GATEWAY -k https://127.0.0.1:PORT/echo}, done by hand: {@code CONNECT}
     * through the gateway, TLS accepting the demo's self-signed certificate, {@code GET /echo}. Round
     * robin sends successive tunnels through each of the three gateway upstreams (HTTP, HTTP with
     * auth, SOCKS5); each must carry the tunnel to the HTTPS origin.
     */
    @Test
    void theHttpsLineTunnelsThroughEachOfTheThreeUpstreams() throws Exception {
        try (Demo demo = Demo.start(0, 0)) {
            Matcher line = Pattern.compile("curl -x http://127.0.0.1:(\\d+) -k https://127.0.0.1:(\\d+)/echo")
                    .matcher(demo.banner());
            assertTrue(line.find(), "the banner shows the HTTPS line: " + demo.banner());
            int gatewayPort = Integer.parseInt(line.group(1));
            String target = "127.0.0.1:" + line.group(2);
            Set<String> proxies = new HashSet<>();
            for (int i = 0; i < 6 && proxies.size() < 3; i++) {
                try (Socket s = new Socket("127.0.0.1", gatewayPort)) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream()
                            .write(("CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n\r\n")
                                    .getBytes(StandardCharsets.ISO_8859_1));
                    String head = readHead(s.getInputStream());
                    assertTrue(head.startsWith("HTTP/1.1 200"), "CONNECT " + i + ": " + head);
                    Matcher proxy =
                            Pattern.compile("(?im)^X-ProxyPool-Proxy: (\\S+)").matcher(head);
                    assertTrue(proxy.find(), head);
                    proxies.add(proxy.group(1));
                    try (SSLSocket tls = (SSLSocket) BenchGatewayCommand.trustAll()
                            .createSocket(s, "127.0.0.1", Integer.parseInt(line.group(2)), true)) {
                        tls.getOutputStream()
                                .write(("GET /echo HTTP/1.1\r\nHost: " + target + "\r\nConnection: close\r\n\r\n")
                                        .getBytes(StandardCharsets.ISO_8859_1));
                        String answer = new String(tls.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                        assertTrue(answer.startsWith("HTTP/1.1 200"), "through " + proxy.group(1) + ": " + answer);
                        assertTrue(answer.contains("\"ip\""), answer);
                    }
                }
            }
            assertEquals(3, proxies.size(), "tunnels through all three gateway upstreams: " + proxies);
        }
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.append((char) b);
        }
        return head.toString();
    }

    @Test
    void theDemoDeletesItsTemporaryDirectoryWithTheCredentialsFile() throws Exception {
        Path dir;
        try (Demo demo = Demo.start(0, 0)) {
            dir = demo.dir();
            assertTrue(
                    Files.isRegularFile(dir.resolve("credentials.properties")),
                    "sanity: the demo wrote its credentials");
            assertTrue(demo.banner().contains("deletes " + dir), demo.banner());
        }
        assertFalse(Files.exists(dir), dir + " is left behind");
    }

    @Test
    void aBusyGatewayPortNamesTheFlagToChangeIt() throws IOException {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CliRunner.Run r = assertTimeoutPreemptively(
                    Duration.ofSeconds(60),
                    () -> CliRunner.run(
                            "demo", "--gateway-port", Integer.toString(busy.getLocalPort()), "--api-port", "0"));
            assertEquals(Main.EXIT_ERROR, r.exit(), r.out() + r.err());
            assertTrue(
                    r.err()
                            .contains("gateway port " + busy.getLocalPort()
                                    + " is already in use; choose another with --gateway-port"),
                    r.err());
        }
    }

    @Test
    void aBusyApiPortInServeNamesTheConfigKey(@TempDir Path dir) throws IOException {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(
                    cfg, "server: { host: 127.0.0.1, gatewayPort: 0, apiPort: " + busy.getLocalPort() + " }\n");
            CliRunner.Run r = assertTimeoutPreemptively(
                    Duration.ofSeconds(60), () -> CliRunner.run("serve", "--config", cfg.toString()));
            assertEquals(Main.EXIT_ERROR, r.exit(), r.out() + r.err());
            assertTrue(
                    r.err()
                            .contains("API port " + busy.getLocalPort()
                                    + " is already in use; choose another with server.apiPort"),
                    r.err());
        }
    }
    /**
     * The same busy API port in a real {@code serve} process: its whole output (stdout, stderr, the
     * log) is the one line, with no Helidon stack trace before it.
     */
    @Test
    void aBusyApiPortInAServeProcessPrintsNoStackTrace(@TempDir Path dir) throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(
                    cfg, "server: { host: 127.0.0.1, gatewayPort: 0, apiPort: " + busy.getLocalPort() + " }\n");
            Process p = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "--sun-misc-unsafe-memory-access=allow",
                            "-cp",
                            System.getProperty("java.class.path"),
                            "dev.proxypool.cli.Main",
                            "serve",
                            "--config",
                            cfg.toString())
                    .redirectErrorStream(true)
                    .start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), out);
            assertEquals(Main.EXIT_ERROR, p.exitValue(), out);
            assertTrue(
                    out.contains("API port " + busy.getLocalPort() + " is already in use; choose another with"), out);
            assertFalse(out.contains("\tat "), "no stack trace: " + out);
            assertFalse(out.contains("Failed to start listener"), out);
        }
    }
}
