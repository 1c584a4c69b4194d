package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.server.gateway.staticupstream.StaticUpstream;
import dev.proxypool.server.gateway.staticupstream.StaticUpstreamEngine;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/transparent.md, built for real: a network namespace with a veth pair to the host, an
 * iptables {@code REDIRECT} inside it sending the origin's port to redsocks, redsocks pointed at
 * the gateway (once as {@code socks5} at the SOCKS5 listener, once as {@code http-connect} at the
 * HTTP listener, both with a login), the gateway tunnelling through a fake upstream proxy on the
 * host's loopback. A plain {@code curl} inside the namespace, which knows nothing of any proxy,
 * reaches the origin; the origin sees the upstream proxy's connection, not the namespace's.
 *
 * <p>Needs root, {@code ip}, {@code iptables} and {@code redsocks} (Debian packages iproute2,
 * iptables, redsocks; .ci/run installs them); skipped with a message naming what is missing
 * otherwise.
 */
class TransparentRecipeTest {

    private static final String IP = "/usr/sbin/ip";
    private static final String IPTABLES = "/usr/sbin/iptables";
    private static final String REDSOCKS = "/usr/sbin/redsocks";
    private static final String CURL = "/usr/bin/curl";
    private static final int REDSOCKS_PORT = 12345;

    @TempDir
    Path dir;

    private String ns;
    private String hostIp;
    private String nsIp;
    private String vethHost;
    private HttpServer origin;
    private FakeHttpProxy upstream;
    private Gateway gateway;
    private GatewayListener http;
    private GatewayListener socks;
    private Process redsocks;

    @BeforeEach
    void setUp() throws Exception {
        List<String> missing = new ArrayList<>();
        if (!"root".equals(System.getProperty("user.name"))) {
            missing.add("root");
        }
        for (String tool : List.of(IP, IPTABLES, REDSOCKS, CURL)) {
            if (!new File(tool).canExecute()) {
                missing.add(tool);
            }
        }
        assumeTrue(
                missing.isEmpty(),
                "the transparent-gateway recipe test needs " + missing
                        + " (apt-get install redsocks iptables iproute2, run as root)");
        int n = (int) (ProcessHandle.current().pid() % 200) + 20;
        ns = "pp-transparent-" + n;
        vethHost = "pp-tr" + n + "h";
        String vethNs = "pp-tr" + n + "n";
        hostIp = "10.231." + n + ".1";
        nsIp = "10.231." + n + ".2";
        run(IP, "netns", "add", ns);
        run(IP, "link", "add", vethHost, "type", "veth", "peer", "name", vethNs);
        run(IP, "link", "set", vethNs, "netns", ns);
        run(IP, "addr", "add", hostIp + "/30", "dev", vethHost);
        run(IP, "link", "set", vethHost, "up");
        inNs(IP, "addr", "add", nsIp + "/30", "dev", vethNs);
        inNs(IP, "link", "set", vethNs, "up");
        inNs(IP, "link", "set", "lo", "up");

        origin = HttpServer.create(new InetSocketAddress(InetAddress.getByName(hostIp), 0), 16);
        origin.createContext("/where", ex -> {
            byte[] body = ("seen from " + ex.getRemoteAddress().getAddress().getHostAddress())
                    .getBytes(StandardCharsets.US_ASCII);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        origin.start();
        upstream = FakeHttpProxy.start();
        StaticUpstreamEngine engine = new StaticUpstreamEngine(
                "fake", List.of(StaticUpstream.of("fake-1", "127.0.0.1", upstream.port())), 5_000, 0, Ticker.system());
        gateway = Gateway.builder(engine)
                .authenticator(ProxyAuthenticator.basic(Map.of("vm1", "vm1-secret")))
                .build();
        InetAddress bind = InetAddress.getByName(hostIp);
        http = GatewayListener.start(gateway, bind, 0);
        socks = GatewayListener.startSocks(http, bind, 0);
        // every TCP connection from the namespace to the origin's port goes to redsocks instead
        inNs(
                IPTABLES,
                "-t",
                "nat",
                "-A",
                "OUTPUT",
                "-p",
                "tcp",
                "-d",
                hostIp,
                "--dport",
                Integer.toString(origin.getAddress().getPort()),
                "-j",
                "REDIRECT",
                "--to-ports",
                Integer.toString(REDSOCKS_PORT));
    }

    @AfterEach
    void tearDown() throws Exception {
        stopRedsocks();
        if (socks != null) {
            socks.stop(Duration.ofSeconds(1));
        }
        if (http != null) {
            http.stop(Duration.ofSeconds(1));
        }
        if (upstream != null) {
            upstream.close();
        }
        if (origin != null) {
            origin.stop(0);
        }
        if (ns != null) {
            exec(IP, "netns", "del", ns); // takes the namespace's end of the veth pair, and so the pair, along
            exec(IP, "link", "del", vethHost);
        }
    }

    @Test
    void aPlainCurlInTheNamespaceReachesTheOriginThroughRedsocksTheGatewayAndTheUpstream() throws Exception {
        String url = "http://" + hostIp + ":" + origin.getAddress().getPort() + "/where";
        // the REDIRECT is in force: with nobody on redsocks' port the connection is refused
        String[] before = curlInNs(url);
        assertNotEquals("0", before[0], "without redsocks the redirected connection must fail: " + before[1]);

        for (String type : List.of("socks5", "http-connect")) {
            int port = type.equals("socks5") ? socks.port() : http.port();
            startRedsocks(type, port);
            long tunnels = upstream.tunnels();
            String[] r = curlInNs(url);
            assertEquals("0", r[0], type + ": " + r[1] + " / redsocks: " + redsocksLog());
            assertEquals("seen from " + hostIp, r[1], type + ": the origin saw the upstream proxy on the host");
            assertEquals(tunnels + 1, upstream.tunnels(), type + ": one tunnel through the fake upstream");
            stopRedsocks();
        }
    }

    private void startRedsocks(String type, int gatewayPort) throws Exception {
        Path conf = dir.resolve("redsocks-" + type + ".conf");
        Files.writeString(conf, """
                base {
                  log_debug = off;
                  log_info = on;
                  log = stderr;
                  daemon = off;
                  redirector = iptables;
                }
                redsocks {
                  local_ip = 127.0.0.1;
                  local_port = %d;
                  ip = %s;
                  port = %d;
                  type = %s;
                  login = "vm1";
                  password = "vm1-secret";
                }
                """.formatted(REDSOCKS_PORT, hostIp, gatewayPort, type));
        redsocks = new ProcessBuilder(IP, "netns", "exec", ns, REDSOCKS, "-c", conf.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("redsocks.log").toFile())
                .start();
        Await.atMost(Duration.ofSeconds(10))
                .until(
                        "redsocks listening on 127.0.0.1:" + REDSOCKS_PORT + " in the namespace",
                        () -> exec(IP, "netns", "exec", ns, "ss", "-ltnH")[1],
                        s -> s.contains("127.0.0.1:" + REDSOCKS_PORT));
    }

    private String redsocksLog() throws IOException {
        Path log = dir.resolve("redsocks.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    private void stopRedsocks() throws InterruptedException {
        if (redsocks != null) {
            // `ip netns exec` execs redsocks in place: this is redsocks' own pid
            redsocks.destroy();
            if (!redsocks.waitFor(5, TimeUnit.SECONDS)) {
                redsocks.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
            redsocks = null;
        }
    }

    private String[] curlInNs(String url) throws Exception {
        return exec(IP, "netns", "exec", ns, CURL, "-sS", "--max-time", "15", "--noproxy", "*", url);
    }

    private void inNs(String... cmd) throws Exception {
        List<String> all = new ArrayList<>(List.of(IP, "netns", "exec", ns));
        all.addAll(List.of(cmd));
        run(all.toArray(String[]::new));
    }

    private static void run(String... cmd) throws Exception {
        String[] r = exec(cmd);
        assertEquals("0", r[0], String.join(" ", cmd) + ": " + r[1]);
    }

    /** Runs a command (bounded: 30 s); returns [exit code, output]. */
    private static String[] exec(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectInput(new File("/dev/null"))
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), String.join(" ", cmd) + " finished");
        return new String[] {Integer.toString(p.exitValue()), out.strip()};
    }
}
