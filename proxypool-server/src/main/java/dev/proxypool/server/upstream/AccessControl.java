package dev.proxypool.server.upstream;

import dev.proxypool.server.gateway.HeaderLookup;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;

/**
 * The per-request checks the gateway engine applies before routing: the client's rate limit, the
 * destination policy, and the request's own options (session id and label filters from the
 * username). The server wires the real access layer; {@link #OPEN} allows everything (tests).
 */
public interface AccessControl {

    /** Request options beyond the routing: sticky session id and extra label filters. */
    record Options(String sessionId, Map<String, String> labels) {
        public static final Options NONE = new Options("", Map.of());
    }

    /** True when {@code client} may send one more request now. */
    boolean allowRate(String client);

    /** {@code null} when the destination may be reached, else a short reason ({@code loopback}, {@code port}...). */
    String denyDestination(String host, int port, boolean connect);

    /** Options the client put in its credentials (e.g. {@code alice-session-s1-country-us}). */
    Options options(String client, HeaderLookup headers);

    /**
     * Resolves {@code host} once for a direct connection to {@code port} and checks every address
     * (no DNS rebinding), including the gateway's own listeners on that port.
     *
     * @throws DestinationDenied    when the name or one of its addresses is denied (403 {@code destination_denied})
     * @throws UnknownHostException when the name does not resolve
     */
    InetAddress resolveForDirect(String host, int port, boolean connect) throws UnknownHostException;

    /**
     * Whether {@link #resolveForDirect} would look {@code host} up (may wait on DNS); false for an
     * address literal. Default: true, the safe answer.
     */
    default boolean looksUp(String host) {
        return true;
    }

    /** The destination policy refused a direct destination after resolving it. */
    final class DestinationDenied extends UnknownHostException {
        private static final long serialVersionUID = 1L;

        public DestinationDenied(String reason) {
            super("destination denied: " + reason);
        }
    }

    AccessControl OPEN = new AccessControl() {
        @Override
        public boolean allowRate(String client) {
            return true;
        }

        @Override
        public String denyDestination(String host, int port, boolean connect) {
            return null;
        }

        @Override
        public Options options(String client, HeaderLookup headers) {
            return Options.NONE;
        }

        @Override
        public InetAddress resolveForDirect(String host, int port, boolean connect) throws UnknownHostException {
            return InetAddress.getByName(host);
        }
    };
}
