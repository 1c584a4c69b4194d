package dev.proxypool.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The process's name resolver: the JDK's own for names, none for addresses. Helidon asks for the peer's
 * host name ({@code InetSocketAddress.getHostName()}) when it creates the TLS engine of every accepted
 * connection on the REST listener, before any deadline of ours runs: a reverse DNS lookup per connection,
 * in a native call that pins its carrier thread. A flood of TLS connections from addresses without a quick
 * PTR answer held every carrier (256) in those lookups and the listener stopped serving anyone. ProxyPool
 * never needs the name of an address, so an address's "name" is its literal (the JDK's answer to an
 * unknown address anyway). Installed through {@code META-INF/services}.
 *
 * <p>Every lookup of a name that reaches the resolver (a miss of the JDK's address cache) is a JFR event
 * {@value #LOOKUP_EVENT} with its duration, on the calling thread: a native call that blocks, which the
 * test kit's {@code LoopBlockingCheck} reports when it happens on an event loop. Free while no recording
 * enables it.
 */
public final class NoReverseLookup extends InetAddressResolverProvider {

    /** The JFR event of a name lookup. */
    public static final String LOOKUP_EVENT = "dev.proxypool.HostLookup";

    /** A name lookup through the JDK's resolver (no host name in it: destinations are not recorded). */
    @Name(LOOKUP_EVENT)
    @Label("Host name lookup")
    @Category("ProxyPool")
    @StackTrace(true)
    static final class Lookup extends Event {
        @Label("Addresses found")
        int addresses;
    }

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver builtin = configuration.builtinResolver();
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy lookupPolicy)
                    throws UnknownHostException {
                Lookup event = new Lookup();
                if (!event.isEnabled()) {
                    return builtin.lookupByName(host, lookupPolicy);
                }
                event.begin();
                try {
                    // collected, so the event's duration is the lookup's (the builtin resolver resolves eagerly)
                    List<InetAddress> found =
                            builtin.lookupByName(host, lookupPolicy).toList();
                    event.addresses = found.size();
                    return found.stream();
                } finally {
                    event.commit();
                }
            }

            @Override
            public String lookupByAddress(byte[] addr) throws UnknownHostException {
                // the caller (InetAddress.getHostName) answers with the address literal
                throw new UnknownHostException("reverse lookups are off in ProxyPool");
            }
        };
    }

    @Override
    public String name() {
        return "proxypool-no-reverse-lookup";
    }
}
