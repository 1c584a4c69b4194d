package dev.proxypool.server.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.GatewayServer;
import dev.proxypool.server.gateway.ExchangeRecord;
import dev.proxypool.server.gateway.GatewayConfig;
import dev.proxypool.server.upstream.AccessControl;
import dev.proxypool.server.upstream.PoolGatewayEngine;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.RawHttp;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The real gateway ({@link GatewayServer} + {@link PoolGatewayEngine} over a {@link ProxyPool}) in
 * front of upstream proxies on loopback ports, with one catch-all round-robin routing
 * ({@code retry: {maxAttempts: 2, budgetPercent: 20}}, the defaults of docs/configuration.md). The gateway's I/O timeout
 * is shortened to {@link #IO_TIMEOUT} so that hanging upstreams fail within a test's patience.
 */
final class UpstreamBench implements AutoCloseable {

    static final Duration IO_TIMEOUT = Duration.ofSeconds(2);

    final List<Proxy> proxies;
    final ProxyPool pool;
    final PoolGatewayEngine engine;
    final GatewayServer server;
    /** Every ended gateway exchange, as the admin API's request log is told about it. */
    final ConcurrentLinkedQueue<ExchangeRecord> exchanges = new ConcurrentLinkedQueue<>();

    /**
     * @param dir    where the config file goes
     * @param health the YAML body of {@code health:} besides {@code active: {enabled: false}} (may be empty)
     * @param ports  the upstream HTTP proxies, in round-robin order
     */
    UpstreamBench(Path dir, String health, int... ports) {
        this(dir, health, http(ports));
    }

    /** @param keys the upstream proxies of any protocol, in round-robin order */
    UpstreamBench(Path dir, String health, List<ProxyKey> keys) {
        this(dir, health, keys, 256);
    }

    /** @param maxConcurrency every proxy's {@code maxConcurrency} */
    UpstreamBench(Path dir, String health, List<ProxyKey> keys, int maxConcurrency) {
        this(
                dir,
                health,
                keys,
                maxConcurrency,
                GatewayConfig.builder().maxAttempts(10).ioTimeout(IO_TIMEOUT).build());
    }

    /** @param gateway the gateway's wire limits and timeouts (instead of the {@link #IO_TIMEOUT} ones) */
    UpstreamBench(Path dir, String health, List<ProxyKey> keys, int maxConcurrency, GatewayConfig gateway) {
        proxies = new ArrayList<>();
        for (ProxyKey key : keys) {
            proxies.add(Proxy.builder(key)
                    .upstream("lab")
                    .maxConcurrency(maxConcurrency)
                    .build());
        }
        Path cfg = dir.resolve("bench-" + System.nanoTime() + ".yaml");
        try {
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    health: { active: { enabled: false }%s }
                    routings:
                      - { name: lab, strategy: roundRobin, retry: { maxAttempts: 2, budgetPercent: 20 } }
                    """.formatted(health.isEmpty() ? "" : ", " + health));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pool = ProxyPool.builder()
                .config(ConfigLoader.load(cfg, Map.of()))
                .proxies(proxies)
                .background(false)
                .build();
        engine = new PoolGatewayEngine(
                EmbeddedProxyPool.engineOf(pool), EmbeddedProxyPool.dialerOf(pool), AccessControl.OPEN);
        server = GatewayServer.builder(engine)
                .gatewayPort(0)
                .apiPort(0)
                .shutdownGrace(Duration.ofSeconds(1))
                .config(gateway)
                .socksPort(0)
                .exchanges(exchanges::add)
                .start();
    }

    static ProxyKey key(Protocol protocol, int port) {
        return new ProxyKey(protocol, "127.0.0.1", port, CredentialRef.NONE);
    }

    private static List<ProxyKey> http(int... ports) {
        List<ProxyKey> keys = new ArrayList<>();
        for (int port : ports) {
            keys.add(key(Protocol.HTTP, port));
        }
        return keys;
    }

    int port() {
        return server.gatewayPort();
    }

    String id(int index) {
        return proxies.get(index).id();
    }

    ProxyHealth health(int index) {
        return EmbeddedProxyPool.engineOf(pool).runtime(id(index)).orElseThrow().health();
    }

    /** One request on a fresh client connection; the response as the client reads it. */
    RawHttp.Response send(String request, boolean head) throws IOException {
        try (Socket s = client()) {
            InputStream in = RawHttp.buffered(s);
            return RawHttp.exchange(in, s.getOutputStream(), request, head);
        }
    }

    /**
     * One tunnel on a fresh client connection: {@code CONNECT authority}, which must open through the
     * proxy at {@code expected} (its 200 names it), then a GET of 3,000 bytes inside it; capacity back to
     * 0 afterwards.
     *
     * @return the attempts the tunnel took ({@code X-ProxyPool-Attempts}, 1 or 2 with this routing)
     */
    int tunnelThrough(String authority, int expected, int turn) throws IOException {
        int attempts;
        try (Socket s = client()) {
            InputStream in = RawHttp.buffered(s);
            RawHttp.Response est = RawHttp.exchange(in, s.getOutputStream(), connect(authority), true);
            assertEquals(200, est.status(), "turn " + turn + ": the tunnel opens through the live proxy");
            assertEquals(id(expected), est.header("X-ProxyPool-Proxy"), "turn " + turn);
            attempts = Integer.parseInt(est.header("X-ProxyPool-Attempts"));
            assertTrue(attempts >= 1 && attempts <= 2, "turn " + turn + ": attempts " + attempts);
            RawHttp.Response inner =
                    RawHttp.exchange(in, s.getOutputStream(), "GET /bytes?n=3000 HTTP/1.1\r\nHost: x\r\n\r\n", false);
            assertEquals(200, inner.status());
            assertEquals(3000, inner.body().length);
        }
        assertCapacityBackToZero();
        return attempts;
    }

    Socket client() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port());
        s.setSoTimeout(20_000);
        s.setTcpNoDelay(true);
        return s;
    }

    static String get(String url) {
        return request("GET", url);
    }

    static String request(String method, String url) {
        String authority = url.substring("http://".length(), url.indexOf('/', "http://".length()));
        return method + " " + url + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n";
    }

    static String connect(String authority) {
        return "CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n";
    }

    /** Waits (bounded) until no attempt and no capacity unit is in flight, then asserts it. */
    void assertCapacityBackToZero() {
        Await.atMost(Duration.ofSeconds(10))
                .until(
                        "no gateway attempt and no capacity unit in flight",
                        () -> "gateway attempts " + engine.inFlight() + ", capacity units "
                                + EmbeddedProxyPool.engineOf(pool).inFlight(),
                        s -> s.equals("gateway attempts 0, capacity units 0"));
    }

    @Override
    public void close() {
        try {
            server.stop();
            engine.closeIdle();
        } finally {
            pool.close();
        }
    }
}
