package dev.proxypool.core.routing;

import java.util.Arrays;

/**
 * A {@link Match} turned into arrays once, so matching a request walks primitives and compiled
 * host patterns only: no regex, no allocation, no boxing. Cheap keys are checked first, request
 * headers (an adapter call into the gateway's request) last.
 */
final class CompiledMatch {

    private final String[] clients;
    private final HostPattern[] hosts;
    private final int[] ports;
    private final String[] methods;
    private final String[] headerNames;
    private final String[] headerValues;

    CompiledMatch(Match m) {
        clients = m.clients().toArray(String[]::new);
        hosts = new HostPattern[m.hosts().size()];
        for (int i = 0; i < hosts.length; i++) {
            hosts[i] = HostPattern.parse(m.hosts().get(i), "match.hosts[" + i + "]");
        }
        ports = m.ports().stream().mapToInt(Integer::intValue).sorted().toArray();
        methods = m.methods().toArray(String[]::new);
        headerNames = m.headers().keySet().toArray(String[]::new);
        headerValues = m.headers().values().toArray(String[]::new);
    }

    boolean matches(RequestFacts r) {
        return clientMatches(r.client())
                && (ports.length == 0 || Arrays.binarySearch(ports, r.port()) >= 0)
                && methodMatches(r.method())
                && hostMatches(r.host())
                && headersMatch(r);
    }

    private boolean clientMatches(String client) {
        if (clients.length == 0) {
            return true;
        }
        if (client == null) {
            return false;
        }
        for (String c : clients) {
            if (c.equals(client)) {
                return true;
            }
        }
        return false;
    }

    private boolean methodMatches(String method) {
        if (methods.length == 0) {
            return true;
        }
        if (method == null) {
            return false;
        }
        for (String m : methods) {
            if (m.equalsIgnoreCase(method)) {
                return true;
            }
        }
        return false;
    }

    private boolean hostMatches(String host) {
        if (hosts.length == 0) {
            return true;
        }
        if (host == null) {
            return false;
        }
        int from = 0;
        int to = host.length();
        if (to > 2 && host.charAt(0) == '[' && host.charAt(to - 1) == ']') {
            from = 1;
            to--;
        }
        if (to - from > 1 && host.charAt(to - 1) == '.') {
            to--;
        }
        for (HostPattern p : hosts) {
            if (p.matches(host, from, to)) {
                return true;
            }
        }
        return false;
    }

    private boolean headersMatch(RequestFacts r) {
        for (int i = 0; i < headerNames.length; i++) {
            String v = r.header(headerNames[i]);
            if (v == null || !trimmedEquals(v, headerValues[i])) {
                return false;
            }
        }
        return true;
    }

    /** {@code v} with surrounding whitespace ignored equals {@code expected}, without trimming a copy. */
    private static boolean trimmedEquals(String v, String expected) {
        int from = 0;
        int to = v.length();
        while (from < to && v.charAt(from) <= ' ') {
            from++;
        }
        while (to > from && v.charAt(to - 1) <= ' ') {
            to--;
        }
        return to - from == expected.length() && v.regionMatches(from, expected, 0, expected.length());
    }
}
