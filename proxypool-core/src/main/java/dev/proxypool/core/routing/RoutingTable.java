package dev.proxypool.core.routing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The ordered {@code routings:} list: the first rule whose {@link Match} takes a request wins
 * (docs/design.md#routing-and-strategies, R1). Immutable and thread-safe; a config change builds a new table.
 *
 * <p>{@link #route(RequestFacts)} is on the gateway's hot path: matches are compiled to arrays
 * once here, and a lookup walks them in order with no allocation, O(rules × alternatives), which
 * for tens of rules is a few hundred character comparisons at most.
 */
public final class RoutingTable {

    /** A table with no rules: every request gets no route. */
    public static final RoutingTable EMPTY = new RoutingTable(List.of());

    private final List<RoutingRule> rules;
    private final RoutingRule[] ruleArray;
    private final CompiledMatch[] matches;
    private final Map<String, RoutingRule> byName;

    /**
     * Compiles the rules' matches.
     *
     * @param rules the rules in match order; not null, copied
     * @throws IllegalArgumentException when two rules share a name:
     *                                  {@code routings[2].name: 'shop' is also routings[0]}
     */
    public RoutingTable(List<RoutingRule> rules) {
        if (rules == null) {
            throw new IllegalArgumentException("routings must not be null");
        }
        this.rules = List.copyOf(rules);
        this.ruleArray = this.rules.toArray(RoutingRule[]::new);
        this.matches = new CompiledMatch[ruleArray.length];
        Map<String, RoutingRule> names = new HashMap<>();
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < ruleArray.length; i++) {
            RoutingRule r = ruleArray[i];
            Integer earlier = positions.putIfAbsent(r.name(), i);
            if (earlier != null) {
                throw new IllegalArgumentException("routings[" + i + "].name: '" + r.name() + "' is also routings["
                        + earlier + "]; routing names must be unique");
            }
            names.put(r.name(), r);
            matches[i] = new CompiledMatch(r.match());
        }
        this.byName = Map.copyOf(names);
    }

    /**
     * The first rule that takes the request, or {@code null} when none does: the gateway then
     * answers {@code 503} with {@code X-ProxyPool-Error: no_route}. Null (not {@code Optional}) so
     * the hot path allocates nothing. Hot path.
     *
     * @param request the request's facts
     * @return the matching rule, or {@code null}
     */
    public RoutingRule route(RequestFacts request) {
        int i = indexOf(request);
        return i < 0 ? null : ruleArray[i];
    }

    /**
     * Position of the first rule that takes the request, or -1 for no route. Hot path.
     *
     * @param request the request's facts
     * @return an index into {@link #rules()}, or -1
     */
    public int indexOf(RequestFacts request) {
        CompiledMatch[] m = matches;
        for (int i = 0; i < m.length; i++) {
            if (m[i].matches(request)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The rules in match order.
     *
     * @return an unmodifiable list
     */
    public List<RoutingRule> rules() {
        return rules;
    }

    /**
     * Looks a rule up by name (admin API, sequential state).
     *
     * @param name the routing's name
     * @return the rule, or empty when no rule has that name
     */
    public Optional<RoutingRule> rule(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /**
     * How many rules there are.
     *
     * @return the rule count; 0 for {@link #EMPTY}
     */
    public int size() {
        return ruleArray.length;
    }
}
