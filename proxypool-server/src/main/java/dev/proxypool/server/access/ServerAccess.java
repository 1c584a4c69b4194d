package dev.proxypool.server.access;

import dev.proxypool.core.limits.RateLimiter;
import dev.proxypool.core.security.DestinationPolicy;
import dev.proxypool.core.security.DestinationVerdict;
import dev.proxypool.core.security.DenyReason;
import dev.proxypool.core.security.DirectDestination;
import dev.proxypool.server.engine.AccessControl;
import dev.proxypool.server.gateway.HeaderLookup;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The access layer as the gateway engine sees it: per-client rate limit, destination policy, and
 * the options a client put in its username ({@code alice-session-s1-country-us}). The username was
 * already verified by {@link ClientAuthenticator}; here it is only parsed for its options.
 */
public final class ServerAccess implements AccessControl {

    private final Supplier<RateLimiter> rates;
    private final DestinationPolicy destinations;
    private final Supplier<UsernameParser> usernames;

    /** Fixed clients. */
    public ServerAccess(RateLimiter rates, DestinationPolicy destinations, UsernameParser usernames) {
        this(() -> rates, destinations, () -> usernames);
    }

    /** The clients in force at each request ({@link LiveClients}: admin changes apply without a restart). */
    public ServerAccess(LiveClients clients, DestinationPolicy destinations) {
        this(clients::rates, destinations, clients::usernames);
    }

    private ServerAccess(Supplier<RateLimiter> rates, DestinationPolicy destinations, Supplier<UsernameParser> usernames) {
        this.rates = rates;
        this.destinations = destinations;
        this.usernames = usernames;
    }

    @Override
    public boolean allowRate(String client) {
        return rates.get().tryAcquire(client);
    }

    @Override
    public String denyDestination(String host, int port, boolean connect) {
        return switch (destinations.check(host, port, connect)) {
            case DestinationVerdict.Allowed a -> null;
            case DestinationVerdict.Denied d -> d.reason().code();
        };
    }

    @Override
    public Options options(String client, HeaderLookup headers) {
        String auth = headers.first("Proxy-Authorization");
        if (auth == null) {
            return Options.NONE;
        }
        BasicCredentials basic = BasicCredentials.parse(auth, 4096);
        if (basic == null) {
            return Options.NONE;
        }
        Arrays.fill(basic.secret(), '\0');
        if (!(usernames.get().parse(basic.username()) instanceof UsernameParser.Parsed parsed)) {
            return Options.NONE;
        }
        UsernameOptions o = parsed.options();
        Map<String, String> labels = o.labels().isEmpty() ? Map.of() : new TreeMap<>(o.labels().required());
        return new Options(o.sessionId().orElse(""), labels);
    }

    @Override
    public InetAddress resolveForDirect(String host, int port, boolean connect) throws UnknownHostException {
        return switch (destinations.resolveForDirect(host, port, connect)) {
            case DirectDestination.Dial d -> d.address();
            case DirectDestination.Refused r -> throw r.reason() == DenyReason.UNRESOLVABLE
                    ? new UnknownHostException("destination did not resolve")
                    : new AccessControl.DestinationDenied(r.reason().code());
        };
    }
}
