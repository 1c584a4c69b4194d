package dev.proxypool.core.health;

/**
 * The live health of one proxy on this worker. Long-lived (survives snapshot swaps), thread-safe,
 * and read on the hot path without locks or allocation.
 *
 * <p>PLACEHOLDER ENGINE: this first version only knows HEALTHY and DISABLED; the full state machine
 * (passive window, cooldown backoff, single probe permit, bans, slow start, EWMA weight) replaces
 * the internals behind these same public signatures.
 */
public final class ProxyHealth {

    private final HealthPolicy policy;
    private volatile HealthState state = HealthState.HEALTHY;
    private volatile long latencyEwmaNanos;
    private volatile long lastCheckedNanos;

    public ProxyHealth(HealthPolicy policy, long nowNanos) {
        this.policy = policy;
        this.lastCheckedNanos = nowNanos;
    }

    public HealthPolicy policy() {
        return policy;
    }

    public HealthState state() {
        return state;
    }

    /**
     * May this proxy carry one more request now? Hot path. {@link Admission#PROBE} is returned to
     * exactly one caller per cooldown; that caller must report its outcome (or the probe expires).
     */
    public Admission tryAdmit(long nowNanos) {
        return state == HealthState.HEALTHY ? Admission.ADMITTED : Admission.DENIED;
    }

    /** Selection weight now: {@code baseWeight} scaled by slow start and dynamic weight; at least 1. */
    public int effectiveWeight(int baseWeight, long nowNanos) {
        return baseWeight;
    }

    /** True while the proxy is banned for {@code domain} (a destination signal, not a proxy fault). */
    public boolean isBannedFor(String domain, long nowNanos) {
        return false;
    }

    /** EWMA of observed latency in nanoseconds; 0 while unknown. */
    public long latencyEwmaNanos() {
        return latencyEwmaNanos;
    }

    /** Ticker reading of the last success (request or probe): the age of this health verdict. */
    public long lastCheckedNanos() {
        return lastCheckedNanos;
    }

    public void recordSuccess(Admission how, long latencyNanos, long nowNanos) {
        latencyEwmaNanos = latencyEwmaNanos == 0 ? latencyNanos : (latencyEwmaNanos * 4 + latencyNanos) / 5;
        lastCheckedNanos = nowNanos;
    }

    public void recordFailure(Admission how, FailureKind kind, long nowNanos) {
        if (kind == FailureKind.PROXY_AUTH_REJECTED) {
            state = HealthState.DISABLED;
        }
    }

    public void banDomain(String domain, long nowNanos) {
    }

    public void disable(String reason, long nowNanos) {
        state = HealthState.DISABLED;
    }

    public void enable(String reason, long nowNanos) {
        state = HealthState.HEALTHY;
    }
}
