package dev.proxypool.sdk.redis;

import dev.proxypool.testkit.PrivateRedisServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A private redis-server for the tests of one class ({@code @RegisterExtension static final
 * PrivateRedis redis = new PrivateRedis();}): started before the class's {@code @BeforeAll} methods,
 * closed after its {@code @AfterAll} ones. For tests that count commands ({@code INFO commandstats})
 * or time scripts, which the shared Redis on 6379 would mix with other tests' traffic.
 */
final class PrivateRedis implements BeforeAllCallback, AfterAllCallback {

    private PrivateRedisServer server;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = PrivateRedisServer.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** The port of the running server. */
    int port() {
        if (server == null) {
            throw new IllegalStateException("the private redis-server runs only while its test class does");
        }
        return server.port();
    }
}
