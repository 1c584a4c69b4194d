package dev.proxypool.core.security;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code security.allowDestinations}: CIDRs ({@code 127.0.0.0/8}, {@code fd00::/8}), single
 * addresses ({@code 10.1.2.3}, {@code ::1}), exact host names ({@code localhost}) and suffixes
 * ({@code *.corp.example}: subdomains only, not {@code corp.example} itself). Addresses must be
 * written canonically (dotted decimal, RFC 4291 IPv6); the ambiguous spellings the destination
 * check decodes are refused here. Immutable, thread-safe.
 */
final class AllowList {

    record Cidr(byte[] network, int prefix) {
        boolean contains(byte[] a) {
            if (a.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (a[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xFF << (8 - rest) & 0xFF;
            return (a[full] & mask) == (network[full] & mask);
        }
    }

    static final AllowList EMPTY = new AllowList(List.of(), Set.of(), List.of());

    private final List<Cidr> cidrs;
    private final Set<String> hosts;
    private final List<String> suffixes;

    private AllowList(List<Cidr> cidrs, Set<String> hosts, List<String> suffixes) {
        this.cidrs = List.copyOf(cidrs);
        this.hosts = Set.copyOf(hosts);
        this.suffixes = List.copyOf(suffixes);
    }

    /** @throws IllegalArgumentException naming {@code security.allowDestinations[i]} and the entry */
    static AllowList parse(List<String> entries) {
        List<Cidr> cidrs = new ArrayList<>();
        Set<String> hosts = new HashSet<>();
        List<String> suffixes = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            String raw = entries.get(i);
            String key = "security.allowDestinations[" + i + "]";
            String e = raw == null ? "" : raw.strip().toLowerCase(Locale.ROOT);
            if (e.isEmpty()) {
                throw new IllegalArgumentException(key + " is empty");
            }
            int slash = e.indexOf('/');
            if (slash >= 0 || IpLiterals.canonical(unbracket(e)) != null || e.indexOf(':') >= 0) {
                cidrs.add(cidr(e, slash, key));
            } else if (e.startsWith("*.")) {
                String suffix = DestinationPolicy.normalizeName(e.substring(2));
                if (suffix == null) {
                    throw new IllegalArgumentException(key + ": '" + raw + "' must be *.<domain>, e.g. *.internal");
                }
                suffixes.add("." + suffix);
            } else {
                String host = DestinationPolicy.normalizeName(e);
                if (host == null || IpLiterals.ipv4(host) != IpLiterals.NOT_IPV4) {
                    throw new IllegalArgumentException(
                            key + ": '" + raw + "' is not a CIDR, a canonical IP address, a host name or *.suffix");
                }
                hosts.add(host);
            }
        }
        return new AllowList(cidrs, hosts, suffixes);
    }

    private static Cidr cidr(String e, int slash, String key) {
        String addr = unbracket(slash < 0 ? e : e.substring(0, slash));
        byte[] net = IpLiterals.canonical(addr);
        if (net == null) {
            throw new IllegalArgumentException(
                    key + ": '" + e + "' has no canonical IP address (write 127.0.0.1, not 127.1 or 0x7f.1)");
        }
        int max = net.length * 8;
        int prefix = max;
        if (slash >= 0) {
            String p = e.substring(slash + 1);
            try {
                prefix = p.isEmpty() || p.length() > 3 ? -1 : Integer.parseInt(p);
            } catch (NumberFormatException ex) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > max) {
                throw new IllegalArgumentException(key + ": '" + e + "' has a bad prefix length (0.." + max + ")");
            }
        }
        return new Cidr(net, prefix);
    }

    private static String unbracket(String s) {
        return s.length() > 2 && s.charAt(0) == '[' && s.charAt(s.length() - 1) == ']'
                ? s.substring(1, s.length() - 1)
                : s;
    }

    /** True when a CIDR entry covers the address (an IPv4-mapped IPv6 address also matches IPv4 entries). */
    boolean allows(byte[] address) {
        for (Cidr c : cidrs) {
            if (c.contains(address)) {
                return true;
            }
        }
        if (address.length == 16 && isMapped(address)) {
            byte[] v4 = {address[12], address[13], address[14], address[15]};
            for (Cidr c : cidrs) {
                if (c.contains(v4)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** True when {@code name} (normalized) is listed exactly or under a {@code *.suffix}. */
    boolean allows(String name) {
        if (hosts.contains(name)) {
            return true;
        }
        for (String s : suffixes) {
            if (name.endsWith(s)) {
                return true;
            }
        }
        return false;
    }

    static boolean isMapped(byte[] a) {
        for (int i = 0; i < 10; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return (a[10] & 0xFF) == 0xFF && (a[11] & 0xFF) == 0xFF;
    }
}
