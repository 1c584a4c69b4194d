package dev.proxypool.sdk.remote;

import io.helidon.webclient.api.DnsAddressLookup;
import io.helidon.webclient.spi.DnsResolver;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Resolves the API's host to an address that keeps the host as the user wrote it. Helidon names the
 * TLS peer by {@code InetSocketAddress.getHostName()}: for an address resolved from an IP literal
 * that is a reverse lookup ({@code 127.0.0.1} becomes {@code localhost}), so a certificate whose only
 * subject alternative name is the address ({@code IP:127.0.0.1}) failed with "No name matching
 * localhost found". With the literal kept, the certificate is checked against the address given.
 */
final class AddressAsGiven implements DnsResolver {

    static final AddressAsGiven INSTANCE = new AddressAsGiven();

    private AddressAsGiven() {}

    @Override
    public InetAddress resolveAddress(String host, DnsAddressLookup lookup) {
        String name = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        try {
            InetAddress[] all = lookup.filter(InetAddress.getAllByName(name));
            if (all.length == 0) {
                throw new IllegalArgumentException("no address of " + name + " fits the lookup " + lookup);
            }
            return InetAddress.getByAddress(name, all[0].getAddress());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown host " + name, e);
        }
    }
}
