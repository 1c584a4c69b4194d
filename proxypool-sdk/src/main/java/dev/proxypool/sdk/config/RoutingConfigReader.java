package dev.proxypool.sdk.config;

import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.routing.HashKey;
import dev.proxypool.core.routing.NoCandidatePolicy;
import dev.proxypool.core.routing.RetryPolicy;
import dev.proxypool.core.routing.RetryRule;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.sequential.Exhaustion;
import dev.proxypool.core.sticky.StickyPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/** Reads {@code routings:} into core {@link RoutingRule}s, in order; the core validates, this names keys. */
final class RoutingConfigReader {

    private RoutingConfigReader() {}

    static List<RoutingRule> read(Node root, List<ProxyPoolConfig.Upstream> upstreams) {
        Set<String> known = new HashSet<>();
        upstreams.forEach(u -> known.add(u.name()));
        List<RoutingRule> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Node r : root.objects("routings")) {
            r.allowOnly(
                    "name",
                    "match",
                    "strategy",
                    "upstreams",
                    "exhaustion",
                    "emptyThreshold",
                    "filter",
                    "minRemainingTtl",
                    "maxHealthAge",
                    "sticky",
                    "retry",
                    "onNoCandidate",
                    "waitTimeout",
                    "hashKey");
            String name = ConfigLoader.name(r, names);
            RoutingRule.Builder b = RoutingRule.builder(name);

            Node match = r.child("match").allowOnly("clients", "hosts", "ports", "methods", "headers");
            b.clients(match.strings("clients"))
                    .hosts(match.strings("hosts"))
                    .methods(match.strings("methods"))
                    .headers(match.map("headers"))
                    .ports(ints(match, "ports"));

            String strategy = r.string("strategy", "roundRobin");
            try {
                b.strategy(Strategy.parse(strategy));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(r.key("strategy"), e.getMessage());
            }
            List<String> ups = r.strings("upstreams");
            for (int i = 0; i < ups.size(); i++) {
                if (!known.contains(ups.get(i))) {
                    throw new ConfigException(
                            r.key("upstreams") + "[" + i + "]",
                            "names upstream '" + ups.get(i) + "', which is not defined under upstreams");
                }
            }
            b.upstreams(ups);
            if (r.has("exhaustion")) {
                b.exhaustion(parse(r, "exhaustion", () -> Exhaustion.parse(r.string("exhaustion", ""))));
            }
            b.emptyThreshold(r.integer("emptyThreshold", RoutingRule.DEFAULT_EMPTY_THRESHOLD, 1, 1_000_000));

            Node filter = r.child("filter").allowOnly("protocol", "protocols", "labels");
            Set<Protocol> protocols = EnumSet.noneOf(Protocol.class);
            List<String> protoNames = new ArrayList<>(filter.strings("protocol"));
            protoNames.addAll(filter.strings("protocols"));
            for (String p : protoNames) {
                protocols.add(parse(filter, "protocol", () -> Protocol.parse(p)));
            }
            b.protocols(protocols);
            b.labels(parse(filter, "labels", () -> LabelSelector.of(filter.map("labels"))));
            b.minRemainingTtl(r.duration("minRemainingTtl", Duration.ZERO));
            b.maxHealthAge(r.duration("maxHealthAge", Duration.ZERO));

            Node sticky = r.child("sticky")
                    .allowOnly(
                            "enabled",
                            "header",
                            "lifetime",
                            "idle",
                            "onLost",
                            "maxEntries",
                            "busyWait",
                            "switchFailures",
                            "switchErrorRate",
                            "switchWindow");
            if (sticky.exists()) {
                StickyPolicy d = StickyPolicy.DEFAULTS;
                StickyPolicy.OnLost onLost =
                        parse(sticky, "onLost", () -> StickyPolicy.OnLost.parse(sticky.string("onLost", "repin")));
                Duration busyWait = sticky.duration("busyWait", d.busyWait());
                if (busyWait.compareTo(StickyPolicy.MAX_BUSY_WAIT) > 0) {
                    throw new ConfigException(
                            sticky.key("busyWait"),
                            "must be at most " + Durations.format(StickyPolicy.MAX_BUSY_WAIT) + ", got "
                                    + Durations.format(busyWait));
                }
                b.sticky(parse(
                        sticky,
                        "",
                        () -> new StickyPolicy(
                                sticky.bool("enabled", true),
                                sticky.string("header", d.header()),
                                sticky.duration("lifetime", d.lifetime()),
                                sticky.duration("idle", d.idle()),
                                onLost,
                                sticky.integer("maxEntries", d.maxEntries(), 1, 100_000_000),
                                busyWait,
                                sticky.integer("switchFailures", d.switchFailures(), 1, 1_000_000),
                                sticky.decimal("switchErrorRate", d.switchErrorRate(), 0.01, 1.0),
                                sticky.integer("switchWindow", d.switchWindow(), 2, StickyPolicy.MAX_SWITCH_WINDOW))));
            }
            Node retry = r.child("retry").allowOnly("maxAttempts", "budgetPercent");
            if (retry.exists()) {
                RetryPolicy d = RetryPolicy.DEFAULTS;
                b.retry(new RetryPolicy(
                        retry.integer("maxAttempts", d.maxAttempts(), 1, RetryRule.MAX_ATTEMPTS),
                        retry.integer("budgetPercent", d.budgetPercent(), 0, 100)));
            }
            if (r.has("onNoCandidate")) {
                b.onNoCandidate(
                        parse(r, "onNoCandidate", () -> NoCandidatePolicy.parse(r.string("onNoCandidate", ""))));
            }
            b.waitTimeout(r.duration("waitTimeout", RoutingRule.DEFAULT_WAIT_TIMEOUT));
            if (r.has("hashKey")) {
                b.hashKey(parse(r, "hashKey", () -> HashKey.parse(r.string("hashKey", ""))));
            }
            try {
                out.add(b.build());
            } catch (IllegalArgumentException e) {
                String msg = e.getMessage();
                int colon = msg.indexOf(": ");
                throw colon > 0
                        ? new ConfigException(msg.substring(0, colon), msg.substring(colon + 2))
                        : new ConfigException(r.path(), msg);
            }
        }
        return out;
    }

    private static List<Integer> ints(Node n, String key) {
        List<Integer> out = new ArrayList<>();
        List<String> raw = n.strings(key);
        for (int i = 0; i < raw.size(); i++) {
            try {
                out.add(Integer.parseInt(raw.get(i)));
            } catch (NumberFormatException e) {
                throw new ConfigException(n.key(key) + "[" + i + "]", "'" + raw.get(i) + "' is not a whole number");
            }
        }
        return out;
    }

    private static <T> T parse(Node n, String key, Supplier<T> parser) {
        try {
            return parser.get();
        } catch (ConfigException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(key.isEmpty() ? n.path() : n.key(key), e.getMessage());
        }
    }
}
