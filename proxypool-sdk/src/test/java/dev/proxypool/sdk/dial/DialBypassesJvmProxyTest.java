package dev.proxypool.sdk.dial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.FakeServer;
import dev.proxypool.testkit.RawHttp;
import java.io.IOException;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The dialer connects to the pool's proxy itself: it neither asks the JVM's {@link ProxySelector}
 * (a per-connect URI build and lookup on the gateway's hot path) nor goes through a JVM-wide SOCKS
 * setting.
 */
class DialBypassesJvmProxyTest {

    @Test
    void dialsNeverConsultTheDefaultProxySelector() throws Exception {
        List<URI> asked = new CopyOnWriteArrayList<>();
        List<Integer> proxyPorts = new CopyOnWriteArrayList<>();
        ProxySelector before = ProxySelector.getDefault();
        ProxySelector.setDefault(new ProxySelector() {
            @Override
            public List<Proxy> select(URI uri) {
                asked.add(uri);
                return List.of(Proxy.NO_PROXY);
            }

            @Override
            public void connectFailed(URI uri, SocketAddress sa, IOException ioe) {
                // nothing to record
            }
        });
        try (FakeOrigin origin = FakeOrigin.start()) {
            for (ProxyKind kind : ProxyKind.values()) {
                try (FakeServer fake = kind.start();
                        Socket tunnel = ProxyKind.dialer().connect(kind.proxy(fake), "127.0.0.1", origin.port())) {
                    proxyPorts.add(fake.port());
                    assertEquals(
                            200,
                            RawHttp.get(tunnel, origin.authority(), "/echo").status(),
                            kind.name());
                }
            }
        } finally {
            ProxySelector.setDefault(before);
        }
        // the fakes' own sockets to the origin do ask (they are plain new Socket()s); the dialer's to a fake must not
        List<URI> aboutProxies =
                asked.stream().filter(u -> proxyPorts.contains(u.getPort())).toList();
        assertTrue(aboutProxies.isEmpty(), "the dialer asked the JVM's proxy selector about " + aboutProxies);
        assertEquals(ProxyKind.values().length, proxyPorts.size());
    }
}
