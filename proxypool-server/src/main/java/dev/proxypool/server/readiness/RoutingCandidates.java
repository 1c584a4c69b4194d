package dev.proxypool.server.readiness;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.sdk.engine.PoolEngine;
import java.util.ArrayList;
import java.util.List;

/**
 * The routings that have no candidate in the served snapshot: no proxy of their upstreams with
 * their protocols and labels (health, capacity and TTL aside). Readiness names them, so a routing
 * that can only fail (or go direct) is visible before clients hit it; the
 * {@code proxypool.routing.candidates} gauge counts with the same predicate.
 */
public final class RoutingCandidates {

    private RoutingCandidates() {}

    /** The names of the routings without a candidate in {@code engine}'s snapshot, in match order. */
    public static List<String> without(PoolEngine engine) {
        List<Proxy> proxies = engine.snapshot().proxies();
        List<String> out = new ArrayList<>();
        for (RoutingRule r : engine.routings()) {
            boolean any = false;
            for (Proxy p : proxies) {
                if (candidate(r, p)) {
                    any = true;
                    break;
                }
            }
            if (!any) {
                out.add(r.name());
            }
        }
        return out;
    }

    /** Whether {@code p} is one of {@code r}'s proxies: its upstreams, protocols and labels (health, capacity and TTL aside). */
    public static boolean candidate(RoutingRule r, Proxy p) {
        CandidateFilter f = r.filter();
        return (r.upstreams().isEmpty() || r.upstreams().contains(p.upstream()))
                && (f.upstreams().isEmpty() || f.upstreams().contains(p.upstream()))
                && (f.protocols().isEmpty() || f.protocols().contains(p.protocol()))
                && f.labels().matches(p.labels());
    }
}
