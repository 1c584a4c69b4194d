package dev.proxypool.server.api;

import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.health.HealthReason;
import dev.proxypool.core.health.HealthStatus;
import dev.proxypool.core.health.ProbeHolder;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.runtime.ProxyRuntime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One proxy's health as the REST API shows it in detail ({@code GET /v1/admin/proxies/{id}},
 * {@code GET /v1/nodes/{id}/health}): the current status with when it was entered and when its
 * cooldown ends, the backoff step, the counters that judge it, and its last transitions, oldest
 * first. Instants are the control plane's wall clock: a ticker reading {@code t} is shown as
 * {@code now - (nowNanos - t)}.
 *
 * <pre>
 * {"state": "COOLING", "reason": "connect_timeout", "stage": "passive", "since": "2026-12-02T05:00:00Z",
 *  "cooldownUntil": "2026-12-02T05:03:00Z", "backoffStep": 1, "probeHolder": null,
 *  "counters": {"passiveFailureStreak": 3, "activeFailureStreak": 0, "targetFailureStreak": 0,
 *               "windowRequests": 12, "windowFailures": 4, "inFlight": 0, "maxConcurrency": 10,
 *               "latencyEwmaMs": 12.5, "weightFactor": 1.0},
 *  "transitions": [{"sequence": 0, "state": "HEALTHY", "reason": "created", "stage": "initial", "at": "..."}, ...]}
 * </pre>
 */
public final class HealthRecord {

    /** How many transitions a record shows by default (the core keeps the last 32). */
    public static final int DEFAULT_TRANSITIONS = 20;

    private HealthRecord() {}

    /**
     * @param runtime     the proxy's live runtime
     * @param now         the wall clock now
     * @param nowNanos    the engine's ticker now
     * @param transitions how many of the last transitions to show (0..)
     */
    public static Map<String, Object> of(ProxyRuntime runtime, Instant now, long nowNanos, int transitions) {
        ProxyHealth health = runtime.health();
        HealthStatus s = health.status();
        Map<String, Object> m = new LinkedHashMap<>(status(s, now, nowNanos));
        m.remove("at");
        m.put("since", at(s.sinceNanos(), now, nowNanos));
        m.put("cooldownUntil", s.cooldownUntilNanos() == 0 ? null : at(s.cooldownUntilNanos(), now, nowNanos));
        m.put("backoffStep", backoffStep(s.backoffNanos(), health.policy()));
        m.put(
                "probeHolder",
                s.probeHolder() == ProbeHolder.NONE
                        ? null
                        : s.probeHolder().name().toLowerCase(Locale.ROOT));
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("passiveFailureStreak", health.passiveFailureStreak());
        c.put("activeFailureStreak", health.activeFailureStreak());
        c.put("targetFailureStreak", health.targetFailureStreak());
        c.put("windowRequests", health.windowRequests(nowNanos));
        c.put("windowFailures", health.windowFailures(nowNanos));
        c.put("inFlight", runtime.capacity().inFlight());
        c.put("maxConcurrency", runtime.capacity().limit());
        c.put("latencyEwmaMs", Math.round(health.latencyEwmaNanos() / 100_000.0) / 10.0);
        c.put("weightFactor", health.weightFactor());
        m.put("counters", c);
        List<HealthStatus> history = health.history();
        List<Object> shown = new ArrayList<>();
        for (HealthStatus h : history.subList(Math.max(0, history.size() - transitions), history.size())) {
            shown.add(status(h, now, nowNanos));
        }
        m.put("transitions", shown);
        return m;
    }

    private static Map<String, Object> status(HealthStatus s, Instant now, long nowNanos) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sequence", s.sequence());
        m.put("state", s.state().name());
        m.put("reason", s.reason().code());
        if (s.reason() instanceof HealthReason.Operator op) {
            m.put("detail", op.text());
        } else if (s.reason() instanceof HealthReason.OperatorEnabled op) {
            m.put("detail", op.text());
        }
        m.put("stage", s.stage().wireName());
        m.put("at", at(s.sinceNanos(), now, nowNanos));
        return m;
    }

    /** The ticker reading {@code nanos} on the wall clock. */
    static String at(long nanos, Instant now, long nowNanos) {
        return now.minusNanos(nowNanos - nanos).toString();
    }

    /**
     * 0 without a cooldown; 1 for the first ({@code health.cooldown.initial}), +1 per doubling (the
     * step stays once {@code health.cooldown.max} caps it).
     */
    static int backoffStep(long backoffNanos, HealthPolicy policy) {
        if (backoffNanos <= 0) {
            return 0;
        }
        long b = Math.max(1, policy.cooldownInitial().toNanos());
        int step = 1;
        while (b < backoffNanos && step < 62) {
            b *= 2;
            step++;
        }
        return step;
    }
}
