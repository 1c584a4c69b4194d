package dev.proxypool.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.stream.Stream;

/**
 * The process's name resolver: the JDK's own for names, none for addresses. Helidon asks for the peer's
 * host name ({@code InetSocketAddress.getHostName()}) when it creates the TLS engine of every accepted
 * connection on the REST listener, before any deadline of ours runs: a reverse DNS lookup per connection,
 * in a native call that pins its carrier thread. A flood of TLS connections from addresses without a quick
 * PTR answer held every carrier (256) in those lookups and the listener stopped serving anyone. ProxyPool
 * never needs the name of an address, so an address's "name" is its literal (the JDK's answer to an
 * unknown address anyway). Installed through {@code META-INF/services}.
 */
public final class NoReverseLookup extends InetAddressResolverProvider {

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver builtin = configuration.builtinResolver();
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy lookupPolicy)
                    throws UnknownHostException {
                return builtin.lookupByName(host, lookupPolicy);
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
