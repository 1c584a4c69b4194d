package dev.proxypool.core.security;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The gateway's destination check (docs/design.md#security, X4–X5): may a client's request reach {@code host:port}?
 *
 * <h2>Deny by default</h2>
 * Loopback, unspecified, RFC 1918, carrier-grade NAT, link-local, multicast, broadcast, IPv6
 * unique-local, documentation/benchmarking/future-use ranges, cloud metadata addresses and names,
 * {@code localhost} and other local-only names, IPv6 forms that embed any of those IPv4 addresses,
 * and the gateway's own listeners. See {@link DenyReason} and {@link AddressClass} for the table.
 *
 * <h2>Literals are decoded, names are not resolved</h2>
 * IP literals are decoded here in every spelling a resolver or client accepts ({@code 2130706433},
 * {@code 0177.0.0.1}, {@code 0x7f.1}, {@code 127.1}, {@code [::ffff:127.0.0.1]}); a leading-zero
 * spelling is checked under both the octal and the decimal reading, and a host whose last label
 * is numeric but which is no valid address is refused as {@link DenyReason#BAD_TARGET}. Names
 * are not resolved for proxied requests: the upstream proxy resolves them, on its own network.
 * (A public name pointing at a private address, {@code 127.0.0.1.nip.io}, therefore reaches the
 * upstream's loopback, not ours.) Only {@link #resolveForDirect} — for {@code onNoCandidate:
 * direct}, where this process dials — resolves, once, checks every address and returns the
 * checked one to dial.
 *
 * <h2>Overrides</h2>
 * {@code security.allowDestinations} (CIDRs, exact names, {@code *.suffix}) allows a match
 * whatever its class — tests and demos need loopback. {@code allowPrivateDestinations: true}
 * allows the private-scope classes wholesale (loopback, RFC 1918, CGNAT, link-local, ULA, local
 * names) but never metadata, multicast, broadcast, reserved or unspecified addresses unless
 * allow-listed. Own listeners are refused even when allow-listed. {@code CONNECT} is allowed
 * only to {@code security.connectPorts} (default 443, 8443; an empty list refuses every CONNECT).
 *
 * <p>Immutable, thread-safe; {@link #check} does no I/O, is O(length of host + allow-list), and
 * allocates a couple of small objects per call (the decoded literal), nothing for a denial.
 */
public final class DestinationPolicy {

    /** CONNECT ports allowed when none are configured ({@code security.connectPorts}). */
    public static final List<Integer> DEFAULT_CONNECT_PORTS = List.of(443, 8443);

    /** Resolves a host name to all its addresses; injectable so tests need no DNS. */
    @FunctionalInterface
    public interface Resolver {
        /**
         * Resolves one name.
         *
         * @param host a host name (never an IP literal: those are decoded, not resolved)
         * @return every address of the name, at least one
         * @throws UnknownHostException when the name does not resolve
         */
        InetAddress[] resolve(String host) throws UnknownHostException;

        /**
         * The JVM's resolver.
         *
         * @return {@link InetAddress#getAllByName(String)} as a resolver
         */
        static Resolver system() {
            return InetAddress::getAllByName;
        }
    }

    private static final Set<String> METADATA_NAMES = Set.of(
            "metadata",
            "metadata.google.internal",
            "metadata.goog",
            "instance-data",
            "instance-data.ec2.internal",
            "metadata.tencentyun.com",
            "metadata.platformequinix.com");
    private static final String[] LOCAL_SUFFIXES = {
        ".local", ".internal", ".home.arpa", ".localdomain", ".svc", ".intranet", ".lan"
    };

    private final boolean allowPrivate;
    private final boolean anyConnectPort;
    private final BitSet connectPorts;
    private final AllowList allowList;
    private final OwnListeners own;
    private final Resolver resolver;

    private DestinationPolicy(Builder b) {
        this.allowPrivate = b.allowPrivate;
        this.anyConnectPort = b.anyConnectPort;
        this.connectPorts = (BitSet) b.connectPorts.clone();
        this.allowList = AllowList.parse(b.allow);
        this.own = new OwnListeners(b.ownListeners, b.localAddresses);
        this.resolver = b.resolver;
    }

    /**
     * A builder with the secure defaults: private destinations refused, CONNECT to 443
     * and 8443 only, no allow-list, no own listeners, the system resolver.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Decides whether the gateway may forward to {@code host:port}.
     *
     * @param host    as in the request target: a name, an IPv4 literal in any spelling, an IPv6
     *                literal with or without brackets
     * @param connect true for a {@code CONNECT} tunnel (port restricted to {@code connectPorts})
     * @param port    the target port; outside 1..65535 is {@link DenyReason#BAD_TARGET}
     * @return Allowed, or Denied with the first reason that applies
     */
    public DestinationVerdict check(String host, int port, boolean connect) {
        if (port < 1 || port > 65535) {
            return denied(DenyReason.BAD_TARGET);
        }
        if (connect && !anyConnectPort && !connectPorts.get(port)) {
            return denied(DenyReason.CONNECT_PORT);
        }
        Literal lit = Literal.of(host);
        return switch (lit) {
            case Literal.Bad b -> denied(DenyReason.BAD_TARGET);
            case Literal.Address(byte[] a, byte[] alt) -> {
                DestinationVerdict v = checkAddress(a, port);
                yield alt == null || !v.allowed() ? v : checkAddress(alt, port);
            }
            case Literal.Name(String n) -> checkName(n, port);
        };
    }

    /**
     * For {@code onNoCandidate: direct}: checks {@code host}, resolves a name once, checks every
     * address it resolves to (any denied address refuses the whole name — a name that mixes public
     * and private addresses is a rebinding setup), and returns the address to dial. A name on the
     * allow-list skips the address classes but not the own-listener check.
     *
     * @param host    as in the request target
     * @param port    the target port
     * @param connect true for a {@code CONNECT} tunnel
     * @return Dial with the checked address, or Refused ({@link DenyReason#UNRESOLVABLE} when the name
     *         does not resolve)
     */
    public DirectDestination resolveForDirect(String host, int port, boolean connect) {
        return resolveForDirect(host, port, connect, Literal.of(host));
    }

    /**
     * Whether {@link #resolveForDirect} would look {@code host} up: a name, not an address literal in
     * any spelling this policy decodes (so an event loop can tell whether the call may wait).
     *
     * @param host as in the request target
     * @return true for a name
     */
    public boolean looksUp(String host) {
        return Literal.of(host) instanceof Literal.Name;
    }

    private DirectDestination resolveForDirect(String host, int port, boolean connect, Literal lit) {
        DestinationVerdict first = check(host, port, connect);
        if (first instanceof DestinationVerdict.Denied(DenyReason r)) {
            return new DirectDestination.Refused(r);
        }
        try {
            return switch (lit) {
                case Literal.Bad b -> new DirectDestination.Refused(DenyReason.BAD_TARGET);
                case Literal.Address(byte[] a, byte[] alt) -> new DirectDestination.Dial(InetAddress.getByAddress(a));
                case Literal.Name(String n) -> resolveName(n, port);
            };
        } catch (UnknownHostException e) {
            return new DirectDestination.Refused(DenyReason.UNRESOLVABLE);
        }
    }

    private DirectDestination resolveName(String name, int port) throws UnknownHostException {
        InetAddress[] all = resolver.resolve(name);
        if (all == null || all.length == 0) {
            return new DirectDestination.Refused(DenyReason.UNRESOLVABLE);
        }
        boolean listed = allowList.allows(name);
        for (InetAddress a : all) {
            byte[] bytes = a.getAddress();
            if (own.isOwn(bytes, port)) {
                return new DirectDestination.Refused(DenyReason.OWN_LISTENER);
            }
            if (!listed && checkAddress(bytes, port) instanceof DestinationVerdict.Denied(DenyReason r)) {
                return new DirectDestination.Refused(r);
            }
        }
        return new DirectDestination.Dial(InetAddress.getByAddress(name, all[0].getAddress()));
    }

    private DestinationVerdict checkAddress(byte[] a, int port) {
        if (own.isOwn(a, port)) {
            return denied(DenyReason.OWN_LISTENER);
        }
        if (allowList.allows(a)) {
            return DestinationVerdict.ALLOWED;
        }
        return byClass(AddressClass.classify(a));
    }

    private DestinationVerdict checkName(String name, int port) {
        DenyReason cls = classifyName(name);
        if (cls == DenyReason.LOOPBACK && own.isOwnLoopbackPort(port)) {
            return denied(DenyReason.OWN_LISTENER);
        }
        if (allowList.allows(name)) {
            return DestinationVerdict.ALLOWED;
        }
        return byClass(cls);
    }

    private DestinationVerdict byClass(DenyReason cls) {
        if (cls == null || allowPrivate && cls.privateScope()) {
            return DestinationVerdict.ALLOWED;
        }
        return denied(cls);
    }

    /** Local-only and metadata names; {@code null} for an ordinary public name. */
    static DenyReason classifyName(String n) {
        if (METADATA_NAMES.contains(n)) {
            return DenyReason.METADATA;
        }
        if (n.equals("localhost")
                || n.endsWith(".localhost")
                || n.equals("localhost.localdomain")
                || n.equals("ip6-localhost")
                || n.equals("ip6-loopback")) {
            return DenyReason.LOOPBACK;
        }
        if (n.indexOf('.') < 0 || n.equals("kubernetes.default")) {
            return DenyReason.LOCAL_NAME;
        }
        for (String s : LOCAL_SUFFIXES) {
            if (n.endsWith(s)) {
                return DenyReason.LOCAL_NAME;
            }
        }
        return null;
    }

    private static final DestinationVerdict.Denied[] DENIED = new DestinationVerdict.Denied[DenyReason.values().length];

    static {
        for (DenyReason r : DenyReason.values()) {
            DENIED[r.ordinal()] = new DestinationVerdict.Denied(r);
        }
    }

    private static DestinationVerdict denied(DenyReason r) {
        return DENIED[r.ordinal()];
    }

    /**
     * A host name lower-cased, one trailing dot removed, checked as 1..63-character labels of
     * {@code [a-z0-9_-]} (at most 253 in all); {@code null} when it is no valid name.
     */
    static String normalizeName(String host) {
        String h = host;
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        if (h.isEmpty() || h.length() > 253) {
            return null;
        }
        int label = 0;
        boolean upper = false;
        for (int i = 0; i < h.length(); i++) {
            char c = h.charAt(i);
            if (c == '.') {
                if (label == 0) {
                    return null;
                }
                label = 0;
                continue;
            }
            boolean ok = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_';
            if (!ok && c >= 'A' && c <= 'Z') {
                ok = true;
                upper = true;
            }
            if (!ok || ++label > 63) {
                return null;
            }
        }
        return label == 0 ? null : upper ? h.toLowerCase(Locale.ROOT) : h;
    }

    /** A request host, decoded once. */
    private sealed interface Literal {

        record Bad() implements Literal {}

        /** {@code alt}: the decimal reading of a leading-zero IPv4 spelling, else null. */
        record Address(byte[] address, byte[] alt) implements Literal {}

        record Name(String name) implements Literal {}

        Bad BAD = new Bad();

        static Literal of(String host) {
            if (host == null || host.isEmpty()) {
                return BAD;
            }
            String h = host;
            if (h.charAt(0) == '[') {
                if (h.length() < 3 || h.charAt(h.length() - 1) != ']') {
                    return BAD;
                }
                h = h.substring(1, h.length() - 1);
                if (h.indexOf(':') < 0) {
                    return BAD;
                }
            }
            if (h.indexOf(':') >= 0) {
                if (h.indexOf('%') >= 0) {
                    return BAD; // zone ids name a local interface: never a proxied destination
                }
                byte[] a = IpLiterals.ipv6(h.toLowerCase(Locale.ROOT));
                return a == null ? BAD : new Address(a, null);
            }
            String n = normalizeName(h);
            if (n == null) {
                return BAD;
            }
            long v4 = IpLiterals.ipv4(n);
            if (v4 == IpLiterals.AMBIGUOUS) {
                return BAD;
            }
            if (v4 == IpLiterals.NOT_IPV4) {
                return new Name(n);
            }
            long dec = IpLiterals.ipv4Decimal(n);
            return new Address(IpLiterals.bytes(v4), dec < 0 || dec == v4 ? null : IpLiterals.bytes(dec));
        }
    }

    /** Builder; defaults: private destinations denied, CONNECT to {@link #DEFAULT_CONNECT_PORTS}, no allow list, no own listeners. */
    public static final class Builder {
        private boolean allowPrivate;
        private boolean anyConnectPort;
        private final BitSet connectPorts = new BitSet(65536);
        private List<String> allow = List.of();
        private final List<InetSocketAddress> ownListeners = new ArrayList<>();
        private Collection<InetAddress> localAddresses;
        private Resolver resolver = Resolver.system();

        private Builder() {
            connectPorts(DEFAULT_CONNECT_PORTS);
        }

        /**
         * Sets {@code security.allowPrivateDestinations}; defaults to false.
         *
         * @param allow true to let the private-scope classes through
         * @return this builder
         */
        public Builder allowPrivateDestinations(boolean allow) {
            this.allowPrivate = allow;
            return this;
        }

        /**
         * Replaces the CONNECT ports; empty refuses every CONNECT.
         *
         * @param ports {@code security.connectPorts}, each 1..65535
         * @return this builder
         * @throws IllegalArgumentException naming the index of a value that is not a port
         */
        public Builder connectPorts(Collection<Integer> ports) {
            connectPorts.clear();
            anyConnectPort = false;
            int i = 0;
            for (Integer p : ports) {
                if (p == null || p < 1 || p > 65535) {
                    throw new IllegalArgumentException(
                            "security.connectPorts[" + i + "]: '" + p + "' is not a port (1..65535)");
                }
                connectPorts.set(p);
                i++;
            }
            return this;
        }

        /**
         * CONNECT to any port (tests with origins on ephemeral ports; never in production).
         *
         * @return this builder
         */
        public Builder anyConnectPort() {
            this.anyConnectPort = true;
            return this;
        }

        /**
         * {@code security.allowDestinations}; validated at {@link #build()}.
         *
         * @param entries CIDRs, exact names and {@code *.suffix} patterns; not null
         * @return this builder
         */
        public Builder allowDestinations(List<String> entries) {
            this.allow = List.copyOf(Objects.requireNonNull(entries, "allowDestinations"));
            return this;
        }

        /**
         * Adds a socket the gateway itself listens on: always refused as a destination,
         * whatever the allow-list says (a request must not loop into the gateway). A wildcard address
         * covers every local interface.
         *
         * @param listener the bound address; not null
         * @return this builder
         */
        public Builder ownListener(InetSocketAddress listener) {
            ownListeners.add(Objects.requireNonNull(listener, "ownListener"));
            return this;
        }

        /**
         * Adds several own listeners, as {@link #ownListener} does.
         *
         * @param listeners the bound addresses; no null element
         * @return this builder
         */
        public Builder ownListeners(Collection<InetSocketAddress> listeners) {
            listeners.forEach(this::ownListener);
            return this;
        }

        /**
         * Sets the resolver {@link DestinationPolicy#resolveForDirect} uses; defaults to the system's.
         *
         * @param r the resolver; not null
         * @return this builder
         */
        public Builder resolver(Resolver r) {
            this.resolver = Objects.requireNonNull(r, "resolver");
            return this;
        }

        /** Test hook: the local interface addresses a wildcard listener is reachable on. */
        Builder localAddresses(Collection<InetAddress> addresses) {
            this.localAddresses = List.copyOf(addresses);
            return this;
        }

        /**
         * Builds the policy.
         *
         * @return an immutable policy
         * @throws IllegalArgumentException naming the bad {@code security.allowDestinations[i]} entry
         */
        public DestinationPolicy build() {
            return new DestinationPolicy(this);
        }
    }
}
