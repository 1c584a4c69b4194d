package dev.proxypool.core.security;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Enumeration;
import java.util.List;

/**
 * The gateway's own listening sockets: a destination that is one of them would make the gateway
 * proxy to itself (a loop that ends only when connections run out). A listener bound to a
 * specific address matches that address (and 0.0.0.0 / ::, which reach the local host); a
 * wildcard listener matches any loopback address and every local interface address, read once
 * at construction. Immutable, thread-safe.
 */
final class OwnListeners {

    private record Listener(byte[] address, int port) {}

    private final List<Listener> listeners;
    private final List<byte[]> localAddresses;

    OwnListeners(Collection<InetSocketAddress> sockets, Collection<InetAddress> localOverride) {
        List<Listener> ls = new ArrayList<>();
        boolean anyWildcard = false;
        for (InetSocketAddress s : sockets) {
            InetAddress a = s.getAddress();
            boolean wildcard = a == null || a.isAnyLocalAddress();
            anyWildcard |= wildcard;
            ls.add(new Listener(wildcard ? null : canonical(a.getAddress()), s.getPort()));
        }
        this.listeners = List.copyOf(ls);
        List<byte[]> locals = new ArrayList<>();
        if (anyWildcard) {
            for (InetAddress a : localOverride != null ? localOverride : interfaceAddresses()) {
                locals.add(canonical(a.getAddress()));
            }
        }
        this.localAddresses = List.copyOf(locals);
    }

    private static List<InetAddress> interfaceAddresses() {
        List<InetAddress> out = new ArrayList<>();
        try {
            Enumeration<NetworkInterface> nis = NetworkInterface.getNetworkInterfaces();
            while (nis != null && nis.hasMoreElements()) {
                Enumeration<InetAddress> as = nis.nextElement().getInetAddresses();
                while (as.hasMoreElements()) {
                    out.add(as.nextElement());
                }
            }
        } catch (SocketException e) {
            // Without the list, loopback and unspecified addresses are still matched.
        }
        return out;
    }

    /** True when dialing {@code address:port} reaches one of our listeners. */
    boolean isOwn(byte[] address, int port) {
        if (listeners.isEmpty()) {
            return false;
        }
        byte[] a = canonical(address);
        DenyReason cls = AddressClass.classify(a);
        boolean localHost = cls == DenyReason.LOOPBACK || cls == DenyReason.UNSPECIFIED;
        for (Listener l : listeners) {
            if (l.port() != port) {
                continue;
            }
            if (l.address() == null) {
                if (localHost || isLocal(a)) {
                    return true;
                }
            } else if (Arrays.equals(l.address(), a) || cls == DenyReason.UNSPECIFIED) {
                return true;
            }
        }
        return false;
    }

    /** True when a loopback name ({@code localhost}) on {@code port} reaches one of our listeners. */
    boolean isOwnLoopbackPort(int port) {
        for (Listener l : listeners) {
            if (l.port() == port
                    && (l.address() == null || AddressClass.classify(l.address()) == DenyReason.LOOPBACK)) {
                return true;
            }
        }
        return false;
    }

    private boolean isLocal(byte[] a) {
        for (byte[] l : localAddresses) {
            if (Arrays.equals(l, a)) {
                return true;
            }
        }
        return false;
    }

    /** IPv4-mapped IPv6 as the IPv4 it maps, so both spellings compare equal. */
    static byte[] canonical(byte[] a) {
        return a.length == 16 && AllowList.isMapped(a) ? Arrays.copyOfRange(a, 12, 16) : a;
    }
}
