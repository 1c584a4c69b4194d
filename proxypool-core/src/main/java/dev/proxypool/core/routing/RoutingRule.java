package dev.proxypool.core.routing;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.sequential.Exhaustion;
import dev.proxypool.core.sequential.SequentialRouting;
import dev.proxypool.core.sticky.StickyPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One entry of {@code routings:} (docs/design.md#routing-and-strategies, docs/configuration.md): which requests it takes ({@link Match}), which
 * upstreams feed it and how a proxy is chosen among them. Validated on construction; every message
 * starts with the key, e.g. {@code routings[shop].upstreams: a sequential routing needs at least
 * two upstreams, got 1}. {@link #builder(String)} gives the defaults below and the same messages
 * for the nested blocks.
 *
 * @param name           unique name: letters, digits, {@code . _ -}, at most 64 characters (it
 *                       appears in URLs, metrics and the {@code X-ProxyPool-Routing} header)
 * @param match          which requests; {@link Match#ANY} when null
 * @param strategy       selection strategy; {@code roundRobin} when null
 * @param upstreams      the upstreams feeding the routing, distinct; empty = every upstream
 *                       (not allowed for {@code sequential}, which needs at least two, in order)
 * @param exhaustion     {@code sequential} only: after the last upstream; {@code stop} when null
 * @param emptyThreshold {@code sequential} only: consecutive Empty fetches that advance; at least 1 (3)
 * @param filter         protocol, labels, minimum remaining TTL, maximum health age; its upstream
 *                       list is always this rule's {@code upstreams} (a different non-empty one is
 *                       rejected)
 * @param sticky         sticky sessions; {@link StickyPolicy#DISABLED} when null
 * @param retry          retry policy; {@link RetryPolicy#DEFAULTS} when null
 * @param onNoCandidate  {@code reject} when null
 * @param waitTimeout    how long {@code onNoCandidate: wait} waits; 5 s when null; positive for wait
 * @param hashKey        {@code consistentHash} key source; the target host when null
 */
public record RoutingRule(
        String name,
        Match match,
        Strategy strategy,
        List<String> upstreams,
        Exhaustion exhaustion,
        int emptyThreshold,
        CandidateFilter filter,
        StickyPolicy sticky,
        RetryPolicy retry,
        NoCandidatePolicy onNoCandidate,
        Duration waitTimeout,
        HashKey hashKey) {

    /** How long {@code onNoCandidate: wait} waits when {@code waitTimeout} is not set. */
    public static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofSeconds(5);
    /** Consecutive Empty fetches that advance a sequential routing when {@code emptyThreshold} is not set. */
    public static final int DEFAULT_EMPTY_THRESHOLD = SequentialRouting.DEFAULT_EMPTY_THRESHOLD;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    /**
     * Validates the rule and fills the defaults named on the components.
     *
     * @throws IllegalArgumentException naming the config key ({@code routings[<name>].<key>}) of the
     *     first invalid part
     */
    public RoutingRule {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("routings[].name: a routing needs a name");
        }
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("routings[" + name + "].name: '" + name
                    + "' must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        String key = "routings[" + name + "]";
        match = match == null ? Match.ANY : match;
        strategy = strategy == null ? Strategy.ROUND_ROBIN : strategy;
        upstreams = upstreams(upstreams, key);
        if (strategy == Strategy.SEQUENTIAL && upstreams.size() < 2) {
            throw new IllegalArgumentException(
                    key + ".upstreams: a sequential routing needs at least two upstreams, got " + upstreams.size());
        }
        exhaustion = exhaustion == null ? Exhaustion.STOP : exhaustion;
        if (emptyThreshold < 1) {
            throw new IllegalArgumentException(key + ".emptyThreshold: must be at least 1, got " + emptyThreshold);
        }
        filter = filter == null ? CandidateFilter.ANY : filter;
        if (!filter.upstreams().isEmpty() && !filter.upstreams().equals(upstreams)) {
            throw new IllegalArgumentException(key + ".filter: upstreams " + filter.upstreams()
                    + " differ from the routing's upstreams " + upstreams);
        }
        filter = filter.withUpstreams(upstreams);
        sticky = sticky == null ? StickyPolicy.DISABLED : sticky;
        retry = retry == null ? RetryPolicy.DEFAULTS : retry;
        onNoCandidate = onNoCandidate == null ? NoCandidatePolicy.REJECT : onNoCandidate;
        waitTimeout = waitTimeout == null ? DEFAULT_WAIT_TIMEOUT : waitTimeout;
        if (waitTimeout.isNegative()) {
            throw new IllegalArgumentException(key + ".waitTimeout: must not be negative, got " + waitTimeout);
        }
        if (onNoCandidate == NoCandidatePolicy.WAIT && waitTimeout.isZero()) {
            throw new IllegalArgumentException(key + ".waitTimeout: must be positive with onNoCandidate: wait, got 0s");
        }
        hashKey = hashKey == null ? HashKey.TARGET_HOST : hashKey;
    }

    /**
     * Whether the rule switches upstreams in order (docs/design.md#sequential-switching)
     * instead of picking per request.
     *
     * @return true for the {@code sequential} strategy
     */
    public boolean isSequential() {
        return strategy == Strategy.SEQUENTIAL;
    }

    /**
     * This rule as the sequential board sees it.
     *
     * @throws IllegalStateException when the rule's strategy is not {@code sequential}
     * @return the name, upstreams in order, exhaustion and empty threshold
     */
    public SequentialRouting sequentialRouting() {
        if (!isSequential()) {
            throw new IllegalStateException("routing " + name + " is not sequential");
        }
        return new SequentialRouting(name, upstreams, exhaustion, emptyThreshold);
    }

    private static List<String> upstreams(List<String> in, String key) {
        if (in == null || in.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(in.size());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < in.size(); i++) {
            String u = in.get(i);
            if (u == null || u.isBlank()) {
                throw new IllegalArgumentException(key + ".upstreams[" + i + "]: must not be empty");
            }
            u = u.trim();
            if (!seen.add(u)) {
                throw new IllegalArgumentException(key + ".upstreams[" + i + "]: '" + u + "' is listed twice");
            }
            out.add(u);
        }
        return List.copyOf(out);
    }

    /**
     * A builder with every default of docs/configuration.md.
     *
     * @param name the routing's name, validated by {@link Builder#build()}
     * @return a new builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * Builds a rule from config-shaped pieces with the defaults of docs/configuration.md; {@link #build()} validates
     * and prefixes messages of nested blocks ({@code match}, {@code filter}) with
     * {@code routings[<name>].}.
     */
    public static final class Builder {
        private final String name;
        private List<String> clients = List.of();
        private List<String> hosts = List.of();
        private List<Integer> ports = List.of();
        private List<String> methods = List.of();
        private Map<String, String> headers = Map.of();
        private Strategy strategy = Strategy.ROUND_ROBIN;
        private List<String> upstreams = List.of();
        private Exhaustion exhaustion = Exhaustion.STOP;
        private int emptyThreshold = DEFAULT_EMPTY_THRESHOLD;
        private Set<Protocol> protocols = Set.of();
        private LabelSelector labels = LabelSelector.ANY;
        private Duration minRemainingTtl = Duration.ZERO;
        private Duration maxHealthAge = Duration.ZERO;
        private StickyPolicy sticky = StickyPolicy.DISABLED;
        private RetryPolicy retry = RetryPolicy.DEFAULTS;
        private NoCandidatePolicy onNoCandidate = NoCandidatePolicy.REJECT;
        private Duration waitTimeout = DEFAULT_WAIT_TIMEOUT;
        private HashKey hashKey = HashKey.TARGET_HOST;

        private Builder(String name) {
            this.name = name;
        }

        /**
         * Sets {@code routings[].match.clients}: the client names the rule takes; empty = any client.
         *
         * @param v client names
         * @return this builder
         */
        public Builder clients(String... v) {
            clients = List.of(v);
            return this;
        }
        /**
         * Sets {@code routings[].match.clients}, as {@link #clients(String...)} does.
         *
         * @param v client names; not null
         * @return this builder
         */
        public Builder clients(List<String> v) {
            clients = v;
            return this;
        }
        /**
         * Sets {@code routings[].match.hosts}: destination host patterns; empty = any host.
         *
         * @param v host names or {@code *.suffix} patterns
         * @return this builder
         */
        public Builder hosts(String... v) {
            hosts = List.of(v);
            return this;
        }
        /**
         * Sets {@code routings[].match.hosts}, as {@link #hosts(String...)} does.
         *
         * @param v host names or patterns; not null
         * @return this builder
         */
        public Builder hosts(List<String> v) {
            hosts = v;
            return this;
        }
        /**
         * Sets {@code routings[].match.ports}: destination ports; empty = any port.
         *
         * @param v ports, 1..65535
         * @return this builder
         */
        public Builder ports(Integer... v) {
            ports = List.of(v);
            return this;
        }
        /**
         * Sets {@code routings[].match.ports}, as {@link #ports(Integer...)} does.
         *
         * @param v ports, 1..65535; not null
         * @return this builder
         */
        public Builder ports(List<Integer> v) {
            ports = v;
            return this;
        }
        /**
         * Sets {@code routings[].match.methods}: HTTP methods ({@code CONNECT} for tunnels); empty = any.
         *
         * @param v method names
         * @return this builder
         */
        public Builder methods(String... v) {
            methods = List.of(v);
            return this;
        }
        /**
         * Sets {@code routings[].match.methods}, as {@link #methods(String...)} does.
         *
         * @param v method names; not null
         * @return this builder
         */
        public Builder methods(List<String> v) {
            methods = v;
            return this;
        }
        /**
         * Sets {@code routings[].match.headers}: request headers that must carry exactly these values.
         *
         * @param v header name to value; not null
         * @return this builder
         */
        public Builder headers(Map<String, String> v) {
            headers = v;
            return this;
        }
        /**
         * Sets every {@code match} term from an existing {@link Match}.
         *
         * @param m the match to copy; not null
         * @return this builder
         */
        public Builder match(Match m) {
            clients = m.clients();
            hosts = m.hosts();
            ports = m.ports();
            methods = m.methods();
            headers = m.headers();
            return this;
        }
        /**
         * Sets {@code strategy}; defaults to {@code roundRobin}.
         *
         * @param v the strategy
         * @return this builder
         */
        public Builder strategy(Strategy v) {
            strategy = v;
            return this;
        }
        /**
         * Sets {@code upstreams}, in order; empty = every upstream.
         *
         * @param v distinct upstream names
         * @return this builder
         */
        public Builder upstreams(String... v) {
            upstreams = List.of(v);
            return this;
        }
        /**
         * Sets {@code upstreams}, as {@link #upstreams(String...)} does.
         *
         * @param v distinct upstream names; not null
         * @return this builder
         */
        public Builder upstreams(List<String> v) {
            upstreams = v;
            return this;
        }
        /**
         * Sets {@code exhaustion} ({@code sequential} only); defaults to {@code stop}.
         *
         * @param v what happens after the last upstream
         * @return this builder
         */
        public Builder exhaustion(Exhaustion v) {
            exhaustion = v;
            return this;
        }
        /**
         * Sets {@code emptyThreshold} ({@code sequential} only); defaults to
         * {@value RoutingRule#DEFAULT_EMPTY_THRESHOLD}.
         *
         * @param v consecutive Empty fetches that advance, at least 1
         * @return this builder
         */
        public Builder emptyThreshold(int v) {
            emptyThreshold = v;
            return this;
        }
        /**
         * Sets {@code filter.protocols}; empty = any protocol.
         *
         * @param v the protocols candidates may speak; not null
         * @return this builder
         */
        public Builder protocols(Set<Protocol> v) {
            protocols = v;
            return this;
        }
        /**
         * Sets {@code filter.labels}; defaults to {@link LabelSelector#ANY}.
         *
         * @param v the labels candidates must carry
         * @return this builder
         */
        public Builder labels(LabelSelector v) {
            labels = v;
            return this;
        }
        /**
         * Sets {@code filter.minRemainingTtl}; defaults to zero (any unexpired).
         *
         * @param v zero or positive
         * @return this builder
         */
        public Builder minRemainingTtl(Duration v) {
            minRemainingTtl = v;
            return this;
        }
        /**
         * Sets {@code filter.maxHealthAge}; defaults to zero (no limit).
         *
         * @param v zero or positive
         * @return this builder
         */
        public Builder maxHealthAge(Duration v) {
            maxHealthAge = v;
            return this;
        }
        /**
         * Sets {@code sticky}; defaults to {@link StickyPolicy#DISABLED}.
         *
         * @param v the sticky-session policy
         * @return this builder
         */
        public Builder sticky(StickyPolicy v) {
            sticky = v;
            return this;
        }
        /**
         * Sets {@code retry}; defaults to {@link RetryPolicy#DEFAULTS}.
         *
         * @param v the retry policy
         * @return this builder
         */
        public Builder retry(RetryPolicy v) {
            retry = v;
            return this;
        }
        /**
         * Sets {@code onNoCandidate}; defaults to {@code reject}.
         *
         * @param v what to do when no proxy qualifies
         * @return this builder
         */
        public Builder onNoCandidate(NoCandidatePolicy v) {
            onNoCandidate = v;
            return this;
        }
        /**
         * Sets {@code waitTimeout}; defaults to 5 s.
         *
         * @param v positive with {@code onNoCandidate: wait}, else zero or positive
         * @return this builder
         */
        public Builder waitTimeout(Duration v) {
            waitTimeout = v;
            return this;
        }
        /**
         * Sets {@code hashKey} ({@code consistentHash} only); defaults to the target host.
         *
         * @param v the key source
         * @return this builder
         */
        public Builder hashKey(HashKey v) {
            hashKey = v;
            return this;
        }

        /**
         * Builds and validates the rule.
         *
         * @return the rule
         * @throws IllegalArgumentException naming the key, prefixed {@code routings[<name>].}
         */
        public RoutingRule build() {
            Match m;
            CandidateFilter f;
            try {
                m = new Match(clients, hosts, ports, methods, headers);
            } catch (IllegalArgumentException e) {
                throw prefixed(e, "");
            }
            try {
                f = new CandidateFilter(List.of(), protocols, labels, minRemainingTtl, maxHealthAge);
            } catch (IllegalArgumentException e) {
                throw prefixed(e, "");
            }
            return new RoutingRule(
                    name,
                    m,
                    strategy,
                    upstreams,
                    exhaustion,
                    emptyThreshold,
                    f,
                    sticky,
                    retry,
                    onNoCandidate,
                    waitTimeout,
                    hashKey);
        }

        private IllegalArgumentException prefixed(IllegalArgumentException e, String block) {
            return new IllegalArgumentException("routings[" + name + "]." + block + e.getMessage(), e);
        }
    }
}
