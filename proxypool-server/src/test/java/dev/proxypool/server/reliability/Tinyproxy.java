package dev.proxypool.server.reliability;

import dev.proxypool.testkit.RealProxy;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A real tinyproxy (Debian package {@code tinyproxy}) on a loopback port, killed on close: the test
 * kit's {@link RealProxy#tinyproxy()} under the name these tests know.
 */
public final class Tinyproxy implements AutoCloseable {

    private final RealProxy proxy;

    private Tinyproxy(RealProxy proxy) {
        this.proxy = proxy;
    }

    /**
     * Starts one.
     *
     * @param dir unused: the daemon keeps its files in a directory of its own
     */
    public static Tinyproxy start(Path dir) throws IOException {
        return new Tinyproxy(RealProxy.tinyproxy());
    }

    /** Its port on 127.0.0.1. */
    public int port() {
        return proxy.port();
    }

    @Override
    public void close() {
        proxy.close();
    }
}
