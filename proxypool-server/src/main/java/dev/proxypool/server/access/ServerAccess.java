package dev.proxypool.server.access;

import dev.proxypool.core.limits.RateLimiter;
import dev.proxypool.core.security.DenyReason;
import dev.proxypool.core.security.DestinationPolicy;
import dev.proxypool.core.security.DestinationVerdict;
import dev.proxypool.core.security.DirectDestination;
import dev.proxypool.server.gateway.HeaderLookup;
import dev.proxypool.server.upstream.AccessControl;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The access layer as the gateway engine sees it: per-client rate limit, destination policy, and
 * the options a client put in its username ({@code alice-session-s1-country-us}). The username was
 * already verified by {@link ClientAuthenticator}; here it is only parsed for its options.
 *
 * <p>Parsed options are cached per username (at most {@value #MAX_CACHED_USERNAMES}; further ones
 * are parsed per request) for as long as the client list is the same: a repeat request gets the
 * same {@link Options} instance, whose label map the engine then maps to one cached filter. The
 * username is not a secret; the password is never kept.
 */
public final class ServerAccess implements AccessControl {

    private final Supplier<RateLimiter> rates;
    private final DestinationPolicy destinations;
    private final Supplier<UsernameParser> usernames;
    private volatile OptionsCache optionsCache = new OptionsCache(null);

    static final int MAX_CACHED_USERNAMES = 4096;

    /** Options by username, valid for one parser (a client-list change brings a new parser, so a new cache). */
    private record OptionsCache(UsernameParser parser, ConcurrentHashMap<String, Options> byUsername) {
        OptionsCache(UsernameParser parser) {
            this(parser, new ConcurrentHashMap<>());
        }
    }

    /** Fixed clients. */
    public ServerAccess(RateLimiter rates, DestinationPolicy destinations, UsernameParser usernames) {
        this(() -> rates, destinations, () -> usernames);
    }

    /** The clients in force at each request ({@link LiveClients}: admin changes apply without a restart). */
    public ServerAccess(LiveClients clients, DestinationPolicy destinations) {
        this(clients::rates, destinations, clients::usernames);
    }

    /** A changing client list without {@link LiveClients} (tests). */
    static ServerAccess withParser(
            RateLimiter rates, DestinationPolicy destinations, Supplier<UsernameParser> usernames) {
        return new ServerAccess(() -> rates, destinations, usernames);
    }

    private ServerAccess(
            Supplier<RateLimiter> rates, DestinationPolicy destinations, Supplier<UsernameParser> usernames) {
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
        UsernameParser parser = usernames.get();
        OptionsCache cache = optionsCache;
        if (cache.parser() != parser) {
            cache = new OptionsCache(parser);
            optionsCache = cache;
        }
        String username = basic.username();
        Options options = cache.byUsername().get(username);
        if (options == null) {
            options = parse(parser, username);
            if (cache.byUsername().size() < MAX_CACHED_USERNAMES) {
                cache.byUsername().putIfAbsent(username, options);
            }
        }
        return options;
    }

    private static Options parse(UsernameParser parser, String username) {
        if (!(parser.parse(username) instanceof UsernameParser.Parsed parsed)) {
            return Options.NONE;
        }
        UsernameOptions o = parsed.options();
        if (o.isEmpty()) {
            return Options.NONE;
        }
        Map<String, String> labels =
                o.labels().isEmpty() ? Map.of() : Map.copyOf(o.labels().required());
        return new Options(o.sessionId().orElse(""), labels);
    }

    @Override
    public boolean looksUp(String host) {
        return destinations.looksUp(host);
    }

    @Override
    public InetAddress resolveForDirect(String host, int port, boolean connect) throws UnknownHostException {
        return switch (destinations.resolveForDirect(host, port, connect)) {
            case DirectDestination.Dial d -> d.address();
            case DirectDestination.Refused r ->
                throw r.reason() == DenyReason.UNRESOLVABLE
                        ? new UnknownHostException("destination did not resolve")
                        : new AccessControl.DestinationDenied(r.reason().code());
        };
    }
}
