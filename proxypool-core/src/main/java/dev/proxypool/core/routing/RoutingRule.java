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
public record RoutingRule(String name, Match match, Strategy strategy, List<String> upstreams,
                          Exhaustion exhaustion, int emptyThreshold, CandidateFilter filter,
                          StickyPolicy sticky, RetryPolicy retry, NoCandidatePolicy onNoCandidate,
                          Duration waitTimeout, HashKey hashKey) {

    public static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofSeconds(5);
    public static final int DEFAULT_EMPTY_THRESHOLD = SequentialRouting.DEFAULT_EMPTY_THRESHOLD;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

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
            throw new IllegalArgumentException(key + ".upstreams: a sequential routing needs at least two upstreams, got "
                    + upstreams.size());
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

    public boolean isSequential() {
        return strategy == Strategy.SEQUENTIAL;
    }

    /**
     * This rule as the sequential board sees it.
     *
     * @throws IllegalStateException when the rule's strategy is not {@code sequential}
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

        public Builder clients(String... v) { clients = List.of(v); return this; }
        public Builder clients(List<String> v) { clients = v; return this; }
        public Builder hosts(String... v) { hosts = List.of(v); return this; }
        public Builder hosts(List<String> v) { hosts = v; return this; }
        public Builder ports(Integer... v) { ports = List.of(v); return this; }
        public Builder ports(List<Integer> v) { ports = v; return this; }
        public Builder methods(String... v) { methods = List.of(v); return this; }
        public Builder methods(List<String> v) { methods = v; return this; }
        public Builder headers(Map<String, String> v) { headers = v; return this; }
        public Builder match(Match m) {
            clients = m.clients();
            hosts = m.hosts();
            ports = m.ports();
            methods = m.methods();
            headers = m.headers();
            return this;
        }
        public Builder strategy(Strategy v) { strategy = v; return this; }
        public Builder upstreams(String... v) { upstreams = List.of(v); return this; }
        public Builder upstreams(List<String> v) { upstreams = v; return this; }
        public Builder exhaustion(Exhaustion v) { exhaustion = v; return this; }
        public Builder emptyThreshold(int v) { emptyThreshold = v; return this; }
        public Builder protocols(Set<Protocol> v) { protocols = v; return this; }
        public Builder labels(LabelSelector v) { labels = v; return this; }
        public Builder minRemainingTtl(Duration v) { minRemainingTtl = v; return this; }
        public Builder maxHealthAge(Duration v) { maxHealthAge = v; return this; }
        public Builder sticky(StickyPolicy v) { sticky = v; return this; }
        public Builder retry(RetryPolicy v) { retry = v; return this; }
        public Builder onNoCandidate(NoCandidatePolicy v) { onNoCandidate = v; return this; }
        public Builder waitTimeout(Duration v) { waitTimeout = v; return this; }
        public Builder hashKey(HashKey v) { hashKey = v; return this; }

        /** @throws IllegalArgumentException naming the key, prefixed {@code routings[<name>].} */
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
            return new RoutingRule(name, m, strategy, upstreams, exhaustion, emptyThreshold, f, sticky, retry,
                    onNoCandidate, waitTimeout, hashKey);
        }

        private IllegalArgumentException prefixed(IllegalArgumentException e, String block) {
            return new IllegalArgumentException("routings[" + name + "]." + block + e.getMessage(), e);
        }
    }
}
