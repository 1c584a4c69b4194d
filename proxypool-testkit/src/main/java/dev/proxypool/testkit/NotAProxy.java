package dev.proxypool.testkit;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;

/**
 * An open port that is not a proxy, as a feed full of stale entries is full of them.
 *
 * <ul>
 *   <li>{@link Behaviour#GARBAGE}: sends a banner and binary junk at once, then junk again for
 *       every read, like an SSH or database port;</li>
 *   <li>{@link Behaviour#HTTP_200}: answers whatever arrives with {@code 200 OK} and an HTML page,
 *       then closes, like a web server or captive portal: a {@code CONNECT} "succeeds" here, so only
 *       a real request through the tunnel can tell;</li>
 *   <li>{@link Behaviour#CLOSE}: accepts and closes at once.</li>
 * </ul>
 */
public final class NotAProxy extends FakeServer {

    public enum Behaviour {
        GARBAGE,
        HTTP_200,
        CLOSE
    }

    static final byte[] GARBAGE = ("SSH-2.0-NotAProxy_0.1\r\n\u0000\u00ff\u00fe\u0001garbage\u0007\u0000")
            .getBytes(StandardCharsets.ISO_8859_1);
    static final String PAGE = "<html>this is not a proxy</html>";
    static final byte[] HTTP_200 = ("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + PAGE.length()
                    + "\r\nConnection: close\r\n\r\n" + PAGE)
            .getBytes(StandardCharsets.ISO_8859_1);

    private final Behaviour behaviour;

    private NotAProxy(Behaviour behaviour, Faults faults) {
        super("not-a-proxy", InetAddress.getLoopbackAddress(), null, faults);
        this.behaviour = behaviour;
    }

    public static NotAProxy start(Behaviour behaviour) {
        if (behaviour == null) {
            throw new IllegalArgumentException("behaviour must not be null");
        }
        NotAProxy n = new NotAProxy(behaviour, Faults.NONE);
        n.begin();
        return n;
    }

    public Behaviour behaviour() {
        return behaviour;
    }

    /** This port presented as a proxy of {@code protocol}. */
    public Proxy asProxy(Protocol protocol) {
        return Proxy.builder(new ProxyKey(protocol, host(), port(), null)).build();
    }

    @Override
    void serve(Connection c) throws IOException {
        byte[] buf = new byte[4096];
        switch (behaviour) {
            case CLOSE -> {}
            case GARBAGE -> {
                c.out().write(GARBAGE);
                while (c.in().read(buf) >= 0) {
                    c.out().write(GARBAGE);
                }
            }
            case HTTP_200 -> {
                if (c.in().read(buf) >= 0) {
                    c.out().write(HTTP_200);
                }
            }
        }
    }
}
