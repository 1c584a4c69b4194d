package dev.proxypool.sdk.remote;

import dev.proxypool.core.model.Protocol;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What {@link DistributionClient#acquire} asks for (the body of {@code POST /v1/proxy/acquire}), and
 * the selection {@link DistributionClient#list} lists under. Immutable: each refinement returns a
 * new value.
 *
 * <pre>{@code
 * LeaseRequest.forHost("shop.example").country("US").session("cart-7").hold(Duration.ofMinutes(2))
 * }</pre>
 */
public final class LeaseRequest {

    private final String host;
    private final String key;
    private final String routing;
    private final String session;
    private final Duration hold;
    private final Protocol protocol;
    private final String upstream;
    private final Map<String, String> labels;
    private final String idempotencyKey;

    private LeaseRequest(
            String host,
            String key,
            String routing,
            String session,
            Duration hold,
            Protocol protocol,
            String upstream,
            Map<String, String> labels,
            String idempotencyKey) {
        this.host = host;
        this.key = key;
        this.routing = routing;
        this.session = session;
        this.hold = hold;
        this.protocol = protocol;
        this.upstream = upstream;
        this.labels = Map.copyOf(labels);
        this.idempotencyKey = idempotencyKey;
    }

    /**
     * Any proxy the routing for this client offers, held for the server's default time.
     *
     * @return a request without target, selection or session
     */
    public static LeaseRequest any() {
        return new LeaseRequest(null, null, null, null, null, null, null, Map.of(), null);
    }

    /**
     * A proxy for traffic to {@code host}: the routing is chosen as for a CONNECT to it, the host is
     * the consistent-hash key (unless {@link #key} is given) and proxies banned for it are skipped.
     *
     * @param host the target host, e.g. {@code shop.example}
     * @return a new request
     */
    public static LeaseRequest forHost(String host) {
        return any().host(host);
    }

    private LeaseRequest with(
            String host,
            String key,
            String routing,
            String session,
            Duration hold,
            Protocol protocol,
            String upstream,
            Map<String, String> labels,
            String idempotencyKey) {
        return new LeaseRequest(host, key, routing, session, hold, protocol, upstream, labels, idempotencyKey);
    }

    private static String text(String what, String v) {
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        return v.strip();
    }

    /**
     * This request for another target host.
     *
     * @param h the target host
     * @return a new request
     */
    public LeaseRequest host(String h) {
        return with(text("host", h), key, routing, session, hold, protocol, upstream, labels, idempotencyKey);
    }

    /**
     * An explicit consistent-hash key (a site, a product id): the same key maps to the same proxy.
     *
     * @param k the key
     * @return a new request
     */
    public LeaseRequest key(String k) {
        return with(host, text("key", k), routing, session, hold, protocol, upstream, labels, idempotencyKey);
    }

    /**
     * Use this routing instead of the one the routing table picks.
     *
     * @param r the routing's name
     * @return a new request
     */
    public LeaseRequest routing(String r) {
        return with(host, key, text("routing", r), session, hold, protocol, upstream, labels, idempotencyKey);
    }

    /**
     * A session: the next leases of the same session get the same proxy while it qualifies (the
     * server's {@code distribution.leaseSessionIdle}, 180 s by default, without use ends it).
     *
     * @param s the session id
     * @return a new request
     */
    public LeaseRequest session(String s) {
        return with(host, key, routing, text("session", s), hold, protocol, upstream, labels, idempotencyKey);
    }

    /**
     * How long the lease holds the proxy; whole seconds, at least 1 (the server caps it at its
     * {@code distribution.leaseMaxHold}).
     *
     * @param d the hold time
     * @return a new request
     */
    public LeaseRequest hold(Duration d) {
        if (d == null || d.toSeconds() < 1) {
            throw new IllegalArgumentException("hold must be at least 1 s, got " + d);
        }
        return with(host, key, routing, session, d, protocol, upstream, labels, idempotencyKey);
    }

    /**
     * Only proxies speaking {@code p}.
     *
     * @param p the protocol
     * @return a new request
     */
    public LeaseRequest protocol(Protocol p) {
        return with(
                host,
                key,
                routing,
                session,
                hold,
                Objects.requireNonNull(p, "protocol"),
                upstream,
                labels,
                idempotencyKey);
    }

    /**
     * Only proxies of this upstream.
     *
     * @param u the upstream's name
     * @return a new request
     */
    public LeaseRequest upstream(String u) {
        return with(host, key, routing, session, hold, protocol, text("upstream", u), labels, idempotencyKey);
    }

    /**
     * Only proxies with this label.
     *
     * @param k the label's key
     * @param v its value
     * @return a new request
     */
    public LeaseRequest label(String k, String v) {
        Map<String, String> m = new TreeMap<>(labels);
        m.put(text("label key", k), text("label value", v));
        return with(host, key, routing, session, hold, protocol, upstream, m, idempotencyKey);
    }

    /**
     * Only proxies with label {@code country}.
     *
     * @param c the country, e.g. {@code US}
     * @return a new request
     */
    public LeaseRequest country(String c) {
        return label("country", c);
    }

    /**
     * A retry-safe key: the same key and request return the first lease instead of a new one.
     *
     * @param k 1..255 characters without control characters
     * @return a new request
     */
    public LeaseRequest idempotencyKey(String k) {
        if (k == null || k.isEmpty() || k.length() > 255 || k.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("idempotency key must be 1..255 characters without control characters");
        }
        return with(host, key, routing, session, hold, protocol, upstream, labels, k);
    }

    /**
     * The target host.
     *
     * @return the host, if given
     */
    public Optional<String> host() {
        return Optional.ofNullable(host);
    }

    /**
     * The consistent-hash key.
     *
     * @return the key, if given
     */
    public Optional<String> key() {
        return Optional.ofNullable(key);
    }

    /**
     * The routing named.
     *
     * @return the routing, if given
     */
    public Optional<String> routing() {
        return Optional.ofNullable(routing);
    }

    /**
     * The session id.
     *
     * @return the session, if given
     */
    public Optional<String> session() {
        return Optional.ofNullable(session);
    }

    /**
     * The hold time asked for.
     *
     * @return the hold time, if given
     */
    public Optional<Duration> hold() {
        return Optional.ofNullable(hold);
    }

    /**
     * The protocol asked for.
     *
     * @return the protocol, if given
     */
    public Optional<Protocol> protocol() {
        return Optional.ofNullable(protocol);
    }

    /**
     * The upstream asked for.
     *
     * @return the upstream, if given
     */
    public Optional<String> upstream() {
        return Optional.ofNullable(upstream);
    }

    /**
     * The labels required.
     *
     * @return the labels (immutable)
     */
    public Map<String, String> labels() {
        return labels;
    }

    /**
     * The {@code Idempotency-Key} it goes out with.
     *
     * @return the key, if given
     */
    public Optional<String> idempotencyKey() {
        return Optional.ofNullable(idempotencyKey);
    }
}
