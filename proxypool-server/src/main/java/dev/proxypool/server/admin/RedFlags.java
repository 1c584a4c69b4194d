package dev.proxypool.server.admin;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.extract.UpstreamCounts;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.engine.PoolEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code GET /v1/admin/flags}: what is going wrong short of a total outage, for the console's
 * attention list (docs/console.md#red-flags), each flag with its evidence:
 *
 * <ul>
 *   <li>{@code upstream_unhealthy}: an upstream whose healthy proxies are fewer than
 *       {@code admin.flags.healthyShare} of its proxies (those in the snapshot, in whatever health
 *       state, plus those disabled in the store): "49 of 50 disabled" is an outage for its routings
 *       although one proxy still answers. {@code bad} at 0 healthy, else {@code warn}.</li>
 *   <li>{@code routing_no_candidate}: a routing whose requests in the last
 *       {@value #WINDOW_MINUTES} minutes of the request log (at least {@code admin.flags.minRequests}
 *       of them) answered {@code no_candidate} more often than {@code admin.flags.noCandidateShare}:
 *       its only upstream is empty, every proxy is cooling, or its filters match nothing.</li>
 * </ul>
 *
 * Computed when asked, from the live snapshot and the request log: nothing on the hot path.
 */
final class RedFlags {

    /** How far back the request log is read for the routing flag. */
    static final int WINDOW_MINUTES = 5;

    private final PoolEngine engine;
    private final Optional<GatewayActivity> activity;
    private final ProxyPoolConfig.Admin.Flags thresholds;

    RedFlags(PoolEngine engine, Optional<GatewayActivity> activity, ProxyPoolConfig.Admin.Flags thresholds) {
        this.engine = engine;
        this.activity = activity;
        this.thresholds = thresholds;
    }

    Map<String, Object> view() {
        List<Object> flags = new ArrayList<>();
        upstreams(flags);
        routings(flags);
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("healthyShare", thresholds.healthyShare());
        t.put("noCandidateShare", thresholds.noCandidateShare());
        t.put("minRequests", thresholds.minRequests());
        t.put("windowSeconds", Duration.ofMinutes(WINDOW_MINUTES).toSeconds());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("thresholds", t);
        body.put("flags", flags);
        return body;
    }

    private void upstreams(List<Object> flags) {
        Map<String, int[]> by = new TreeMap<>(); // healthy, cooling, probe_allowed, disabled (health), disabled (store)
        PoolSnapshot s = engine.snapshot();
        for (int slot = 0; slot < s.size(); slot++) {
            int[] c = by.computeIfAbsent(s.proxy(slot).upstream(), k -> new int[5]);
            HealthState h = s.runtime(slot).health().state();
            c[h.ordinal()]++;
        }
        try {
            for (Map.Entry<String, UpstreamCounts> e :
                    engine.store().countsByUpstream().entrySet()) {
                if (e.getValue().disabled() > 0) {
                    by.computeIfAbsent(e.getKey(), k -> new int[5])[4] +=
                            e.getValue().disabled();
                }
            }
        } catch (StoreUnavailableException e) {
            // judged on the snapshot alone while the store is down (the console says the store is down)
        }
        by.forEach((upstream, c) -> {
            int healthy = c[HealthState.HEALTHY.ordinal()];
            int total = c[0] + c[1] + c[2] + c[3] + c[4];
            if (total == 0) {
                return;
            }
            double share = (double) healthy / total;
            if (share >= thresholds.healthyShare()) {
                return;
            }
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("kind", "upstream_unhealthy");
            f.put("severity", healthy == 0 ? "bad" : "warn");
            f.put("upstream", upstream);
            f.put("healthy", healthy);
            f.put("cooling", c[HealthState.COOLING.ordinal()] + c[HealthState.PROBE_ALLOWED.ordinal()]);
            f.put("disabled", c[HealthState.DISABLED.ordinal()] + c[4]);
            f.put("total", total);
            f.put("share", Math.round(share * 1000) / 1000.0);
            f.put(
                    "message",
                    "Upstream " + upstream + ": " + healthy + " of " + total + " proxies healthy ("
                            + percent(share) + ", below " + percent(thresholds.healthyShare()) + "): "
                            + f.get("cooling") + " cooling, " + f.get("disabled") + " disabled.");
            flags.add(f);
        });
    }

    private void routings(List<Object> flags) {
        if (activity.isEmpty()) {
            return;
        }
        long from =
                engine.wallClock().millis() - Duration.ofMinutes(WINDOW_MINUTES).toMillis();
        activity.get().routingOutcomes(from).forEach((routing, c) -> {
            long requests = c[0];
            long none = c[1];
            double share = requests == 0 ? 0 : (double) none / requests;
            if (requests < thresholds.minRequests() || share <= thresholds.noCandidateShare()) {
                return;
            }
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("kind", "routing_no_candidate");
            f.put("severity", "bad");
            f.put("routing", routing);
            f.put("requests", requests);
            f.put("noCandidate", none);
            f.put("share", Math.round(share * 1000) / 1000.0);
            f.put(
                    "message",
                    "Routing " + routing + ": " + none + " of its last " + requests + " requests found no proxy"
                            + " (no_candidate, " + percent(share) + ", above "
                            + percent(thresholds.noCandidateShare()) + ").");
            flags.add(f);
        });
    }

    private static String percent(double share) {
        return Math.round(share * 100) + " %";
    }
}
