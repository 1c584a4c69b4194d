package dev.proxypool.server.access;

import dev.proxypool.core.limits.RateLimiter;
import dev.proxypool.core.security.SecretHash;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.server.gateway.ProxyAuthenticator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The gateway's clients as the admin configuration holds them, followed live: {@code Basic}
 * authentication, per-client rate limits and the client names usernames are parsed against all
 * come from one {@link #update}d client list, so a client created, changed or deleted through
 * {@code /v1/admin/clients} (or by another process sharing the database) takes effect on the next
 * request, with no restart.
 *
 * <p>The stored configuration keeps only a PBKDF2 {@code secretHash}, also for a dev-only plain
 * {@code secret} of the config file (hashed when the store was seeded). Such a client keeps the
 * config file's plain secret — its fast digest compare — as long as the stored hash still verifies
 * that secret (checked once per stored hash); once an admin changed its secret, the stored hash is
 * what counts.
 *
 * <p>A change rebuilds the {@link ClientAuthenticator} (its verified-credentials cache starts
 * empty: each client's next request pays one PBKDF2) and keeps the rate-limit state of clients
 * whose rate did not change ({@link RateLimiter#updated}). An unchanged list is a no-op. Reads are
 * one volatile load; thread-safe.
 */
public final class LiveClients implements ProxyAuthenticator {

    private record View(
            List<ProxyPoolConfig.Client> clients,
            ClientAuthenticator auth,
            RateLimiter rates,
            UsernameParser usernames) {}

    private final Map<String, ProxyPoolConfig.Client> configured = new HashMap<>();
    private final ProxyPoolConfig.Security security;
    private final boolean loopbackOnly;
    /** "name\nstored hash" → whether the config file's plain secret of that client verifies against it. */
    private final Map<String, Boolean> plainStillValid = new HashMap<>();

    private volatile View view;

    private LiveClients(
            List<ProxyPoolConfig.Client> configured, ProxyPoolConfig.Security security, boolean loopbackOnly) {
        configured.forEach(c -> this.configured.put(c.name(), c));
        this.security = Objects.requireNonNull(security, "security");
        this.loopbackOnly = loopbackOnly;
    }

    /**
     * @param configured   the config file's clients (their plain dev secrets, if any)
     * @param stored       the admin configuration's clients now ({@code ConfigState.applyTo(...).clients()})
     * @param loopbackOnly true when the gateway listener accepts loopback connections only
     * @throws IllegalArgumentException naming the client key when a client entry is invalid
     */
    public static LiveClients create(
            List<ProxyPoolConfig.Client> configured,
            List<ProxyPoolConfig.Client> stored,
            ProxyPoolConfig.Security security,
            boolean loopbackOnly,
            Ticker ticker) {
        LiveClients live = new LiveClients(configured, security, loopbackOnly);
        List<ProxyPoolConfig.Client> clients = live.effective(stored);
        live.view = live.build(clients, new RateLimiter(rates(clients), ticker));
        return live;
    }

    /**
     * Follows a new client list (a configuration change). A list equal to the current one changes
     * nothing.
     *
     * @throws IllegalArgumentException naming the client key when a client entry is invalid; the
     *                                  clients in force stay as they were
     */
    public synchronized void update(List<ProxyPoolConfig.Client> stored) {
        List<ProxyPoolConfig.Client> clients = effective(stored);
        View now = view;
        if (clients.equals(now.clients())) {
            return;
        }
        view = build(clients, now.rates().updated(rates(clients)));
    }

    private View build(List<ProxyPoolConfig.Client> clients, RateLimiter rates) {
        ClientAuthenticator auth = ClientAuthenticator.create(clients, security, loopbackOnly);
        UsernameParser usernames = UsernameParser.forClients(
                clients.stream().map(ProxyPoolConfig.Client::name).toList());
        return new View(List.copyOf(clients), auth, rates, usernames);
    }

    /** {@code stored}, with the config file's plain secret for each client whose stored hash still verifies it. */
    private synchronized List<ProxyPoolConfig.Client> effective(List<ProxyPoolConfig.Client> stored) {
        List<ProxyPoolConfig.Client> out = new ArrayList<>(stored.size());
        for (ProxyPoolConfig.Client s : stored) {
            ProxyPoolConfig.Client c = configured.get(s.name());
            if (c != null
                    && c.plainSecret().isPresent()
                    && !c.plainSecret().get().isEmpty()
                    && s.secretHash().isPresent()
                    && s.plainSecret().isEmpty()
                    && plainStillValid.computeIfAbsent(
                            s.name() + "\n" + s.secretHash().get(),
                            k -> verifies(c, s.secretHash().get()))) {
                out.add(new ProxyPoolConfig.Client(
                        s.name(), Optional.empty(), c.plainSecret(), s.token(), s.extractionsPerHour(), s.rps()));
            } else {
                out.add(s);
            }
        }
        return out;
    }

    private static boolean verifies(ProxyPoolConfig.Client configured, String storedHash) {
        char[] plain = configured.plainSecret().get().revealChars();
        try {
            return SecretHash.verify(plain, storedHash);
        } catch (RuntimeException e) {
            return false; // not a hash this build reads: the stored entry is used as it is (and refused there)
        } finally {
            Arrays.fill(plain, '\0');
        }
    }

    @Override
    public String authenticate(String proxyAuthorization) {
        return view.auth().authenticate(proxyAuthorization);
    }

    @Override
    public String tryAuthenticate(String proxyAuthorization) {
        return view.auth().tryAuthenticate(proxyAuthorization);
    }

    /** The authenticator in force now. */
    public ClientAuthenticator authenticator() {
        return view.auth();
    }

    /** The clients in force now (plain dev secrets where they still hold). */
    public List<ProxyPoolConfig.Client> clients() {
        return view.clients();
    }

    /** The per-client rate limits in force now. */
    public RateLimiter rates() {
        return view.rates();
    }

    /** Parses usernames against the client names in force now. */
    public UsernameParser usernames() {
        return view.usernames();
    }

    /** Client name → extraction quota per hour (0 = unlimited), for the Distribution API. */
    public Map<String, Integer> quotas() {
        Map<String, Integer> q = new HashMap<>();
        view.clients().forEach(c -> q.put(c.name(), c.extractionsPerHour()));
        return q;
    }

    /** {@code clients[].rateLimit.rps} by client name. */
    private static Map<String, Double> rates(List<ProxyPoolConfig.Client> clients) {
        Map<String, Double> m = new HashMap<>();
        for (ProxyPoolConfig.Client c : clients) {
            m.put(c.name(), c.rps());
        }
        return m;
    }
}
