package dev.proxypool.cli;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A real {@link ProxyPoolServer} on free loopback ports for the CLI and remote-client tests: an
 * in-memory store that a test can take down or make block, two clients (alice unlimited, bob with
 * a quota of 2 proxies an hour), an inventory file with {@code validate: false}.
 */
final class ApiServer implements AutoCloseable {

    static final String ALICE = "alice-token-0123456789";
    static final String BOB = "bob-token-0123456789";

    final ProxyPoolServer server;
    final Store store;

    private ApiServer(ProxyPoolServer server, Store store) {
        this.server = server;
        this.store = store;
    }

    /**
     * Six proxies: 203.0.113.1..4 (country US, the first with credentials and a 30 min TTL),
     * 203.0.113.5..6 (country DE, socks5).
     */
    static String sixProxies() {
        StringBuilder sb = new StringBuilder();
        sb.append("{\"host\": \"203.0.113.1\", \"port\": 8001, \"protocol\": \"http\", \"credentialRef\": \"vendor\","
                + " \"labels\": {\"country\": \"US\"}, \"ttlSeconds\": 1800}\n");
        for (int i = 2; i <= 4; i++) {
            sb.append("{\"host\": \"203.0.113.")
                    .append(i)
                    .append("\", \"port\": ")
                    .append(8000 + i)
                    .append(", \"protocol\": \"http\", \"labels\": {\"country\": \"US\"}}\n");
        }
        for (int i = 5; i <= 6; i++) {
            sb.append("{\"host\": \"203.0.113.")
                    .append(i)
                    .append("\", \"port\": ")
                    .append(1080 + i)
                    .append(", \"protocol\": \"socks5\", \"labels\": {\"country\": \"DE\"}}\n");
        }
        return sb.toString();
    }

    static ApiServer start(Path dir, String inventory, String extraYaml) throws IOException {
        Files.writeString(dir.resolve("inventory.jsonl"), inventory);
        Files.writeString(dir.resolve("credentials.properties"), "vendor.username=us@er\nvendor.password=p:ss\n");
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                store: { type: memory }
                clients:
                  - { name: alice, secret: alice-secret, token: %s }
                  - { name: bob, secret: bob-secret, token: %s, quota: { extractionsPerHour: 2 } }
                credentials: { file: credentials.properties }
                providers: [{ name: lab, type: jsonl_inventory, path: inventory.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                health: { active: { enabled: false } }
                distribution: { maxCount: 100 }
                """.formatted(ALICE, BOB) + extraYaml);
        Store store = new Store();
        PoolStore proxied = (PoolStore) java.lang.reflect.Proxy.newProxyInstance(
                PoolStore.class.getClassLoader(), new Class<?>[] {PoolStore.class}, store::invoke);
        ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                .pool(b -> b.store(proxied))
                .start();
        return new ApiServer(server, store);
    }

    URI api() {
        return URI.create("http://127.0.0.1:" + server.apiPort());
    }

    String apiUrl() {
        return api().toString();
    }

    String gatewayUrl() {
        return "http://127.0.0.1:" + server.gatewayPort();
    }

    @Override
    public void close() {
        store.release();
        server.close();
        store.real.close();
    }

    /** The in-memory store, with two switches a test flips: down, and extractions that wait. */
    static final class Store {
        final MemoryPoolStore real = new MemoryPoolStore(StoreSettings.DEFAULTS);
        volatile boolean down;
        private volatile CountDownLatch gate;
        final CountDownLatch extractEntered = new CountDownLatch(1);

        /** Extractions wait until {@link #release()} (at most 20 s). */
        void holdExtractions() {
            gate = new CountDownLatch(1);
        }

        void release() {
            CountDownLatch g = gate;
            gate = null;
            if (g != null) {
                g.countDown();
            }
        }

        private Object invoke(Object self, Method m, Object[] args) throws Throwable {
            String name = m.getName();
            if (down && (name.equals("extract") || name.equals("beginIdempotent"))) {
                throw new StoreUnavailableException("test store is down");
            }
            if (name.equals("extract")) {
                CountDownLatch g = gate;
                if (g != null) {
                    extractEntered.countDown();
                    g.await(20, TimeUnit.SECONDS);
                }
            }
            try {
                return m.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
