package dev.proxypool.testkit;

import java.net.InetAddress;
import java.util.Objects;

/** What every fake proxy's builder shares: the outbound address and the faults to inject. */
abstract class FakeProxyBuilder<B extends FakeProxyBuilder<B>> {

    InetAddress outboundFrom;
    Faults faults = Faults.NONE;

    abstract B self();

    /**
     * Binds the proxy's outbound connections to {@code local} (e.g. {@code 127.0.0.2}): on loopback
     * the origin then sees an exit address different from the client's, as with a real proxy.
     */
    public B outboundFrom(InetAddress local) {
        this.outboundFrom = Objects.requireNonNull(local, "outbound address");
        return self();
    }

    public B faults(Faults f) {
        this.faults = Objects.requireNonNull(f, "faults");
        return self();
    }
}
