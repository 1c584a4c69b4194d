package dev.proxypool.cli.bench.capacity;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import javax.net.ssl.SSLSocketFactory;

/**
 * The gateway under load: its HTTP listener (TLS or not), its SOCKS5 listener (null when off), and
 * the client credentials (null for anonymous).
 */
public record GatewayTarget(
        InetSocketAddress http, InetSocketAddress socks, SSLSocketFactory tls, String user, String secret) {

    /**
     * Refuses an address that is neither loopback nor one of this machine's own interfaces (a
     * network namespace of the machine): a load test must not hit someone else's host by a typo.
     */
    public static void checkLocal(InetSocketAddress a, boolean allowRemote, String flag) {
        if (allowRemote || a == null) {
            return;
        }
        InetAddress ip = a.getAddress();
        if (ip == null) {
            throw new IllegalArgumentException(flag + ": " + a.getHostString() + " does not resolve");
        }
        if (ip.isLoopbackAddress() || ip.isAnyLocalAddress()) {
            return;
        }
        try {
            if (NetworkInterface.getByInetAddress(ip) != null) {
                return;
            }
        } catch (SocketException e) {
            // cannot tell: refuse below
        }
        throw new IllegalArgumentException(flag + " " + a.getHostString() + ":" + a.getPort()
                + " is not loopback or an address of this machine; a capacity run is a load test:"
                + " add --allow-remote-target to drive a staging worker on purpose");
    }
}
