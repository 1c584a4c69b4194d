package dev.proxypool.core.health;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The dynamic part of a proxy's weight (docs/design.md#slow-start, H12): EWMAs of success and latency, and a factor in
 * [{@value #MIN_FACTOR}, 1] that {@link ProxyHealth#effectiveWeight(int, long)} multiplies in.
 *
 * <p>The proxy is judged against its <em>peers</em>, the other healthy proxies of its upstream
 * ({@link UpstreamBaseline}), not against its own past: a proxy that stays slow stays down for as
 * long as it is slower than its peers, instead of drifting back to full weight as its own history
 * catches up with it. Target factor = successTerm × latencyTerm, where
 * <ul>
 *   <li>successTerm = min(1, success / peers' mean success), or the success itself while the
 *       upstream has no other member (judged against the ideal);
 *   <li>latencyTerm = min(1, (peers' mean latency + {@value #LATENCY_SLACK_MS} ms) / (latency +
 *       {@value #LATENCY_SLACK_MS} ms)), or 1 while either side has no sample. The slack keeps
 *       sub-millisecond differences (1 ms against 2 ms on a LAN) from halving a weight.
 * </ul>
 * Each update moves the factor toward the target by at most {@value #MAX_STEP} of its value, so
 * weights glide instead of oscillating.
 *
 * <p>While the proxy is healthy, each update also moves its own numbers in the upstream's sums
 * ({@link #publish}); leaving {@code HEALTHY} withdraws them ({@link #withdraw}), leaving the pool
 * retires them ({@link #retire}).
 *
 * <p>Thread-safe and allocation-free: every field is updated by a CAS loop, so concurrent updates
 * never lose the step bound (a racy read-modify-write could undo a step and jump further), and a
 * contribution is swapped before its difference goes into the sums, so racing publishes and
 * withdrawals always net out exactly.
 */
final class DynamicWeight {

    static final double MIN_FACTOR = 0.1;
    static final double MAX_STEP = 0.10;
    static final double SUCCESS_ALPHA = 0.1;
    static final double RECENT_LATENCY_ALPHA = 0.2;
    static final long LATENCY_SLACK_MS = 20;
    private static final double LATENCY_SLACK_NANOS = LATENCY_SLACK_MS * 1_000_000.0;

    /** A contribution not in the sums (no sample yet, or withdrawn while not healthy). */
    private static final long ABSENT = -1;
    /** The proxy left the pool: its contributions never go back into the sums. */
    private static final long RETIRED = Long.MIN_VALUE;

    private static final VarHandle SUCCESS;
    private static final VarHandle RECENT;
    private static final VarHandle FACTOR;
    private static final VarHandle LATENCY_SHARE;
    private static final VarHandle SUCCESS_SHARE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SUCCESS = l.findVarHandle(DynamicWeight.class, "successEwma", double.class);
            RECENT = l.findVarHandle(DynamicWeight.class, "recentLatency", double.class);
            FACTOR = l.findVarHandle(DynamicWeight.class, "factor", double.class);
            LATENCY_SHARE = l.findVarHandle(DynamicWeight.class, "latencyShare", long.class);
            SUCCESS_SHARE = l.findVarHandle(DynamicWeight.class, "successShare", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final UpstreamBaseline baseline;

    @SuppressWarnings("unused") // accessed through SUCCESS
    private volatile double successEwma = 1.0;

    @SuppressWarnings("unused") // accessed through RECENT; 0 = no sample yet
    private volatile double recentLatency;

    @SuppressWarnings("unused") // accessed through FACTOR
    private volatile double factor = 1.0;

    @SuppressWarnings("unused") // accessed through LATENCY_SHARE: nanoseconds in the baseline's sums, or ABSENT/RETIRED
    private volatile long latencyShare = ABSENT;

    @SuppressWarnings("unused") // accessed through SUCCESS_SHARE: ppm in the baseline's sums, or ABSENT/RETIRED
    private volatile long successShare = ABSENT;

    DynamicWeight(UpstreamBaseline baseline) {
        this.baseline = baseline;
    }

    UpstreamBaseline baseline() {
        return baseline;
    }

    /** A success: blend it in, publish the new numbers when {@code inPool}, step toward the target. */
    void onSuccess(long latencyNanos, boolean inPool) {
        blend(SUCCESS, 1.0, SUCCESS_ALPHA);
        if (latencyNanos > 0) {
            blend(RECENT, latencyNanos, RECENT_LATENCY_ALPHA);
        }
        if (inPool) {
            publish();
        }
        step();
    }

    /** A failure of the proxy's own: as {@link #onSuccess}, with no latency. */
    void onFailure(boolean inPool) {
        blend(SUCCESS, 0.0, SUCCESS_ALPHA);
        if (inPool) {
            publish();
        }
        step();
    }

    double factor() {
        return (double) FACTOR.getVolatile(this);
    }

    /** EWMA of recent success latencies, 0 while unknown. */
    long latencyNanos() {
        return (long) (double) RECENT.getVolatile(this);
    }

    double successEwma() {
        return (double) SUCCESS.getVolatile(this);
    }

    /** Mean smoothed latency of the other healthy members of the upstream, 0 while unknown. */
    long peerLatencyNanos() {
        return baseline.peerLatencyNanos(own(LATENCY_SHARE));
    }

    /** Mean smoothed success of the other healthy members of the upstream, or -1 when there are none. */
    double peerSuccess() {
        long ppm = baseline.peerSuccessPpm(own(SUCCESS_SHARE));
        return ppm < 0 ? -1 : (double) ppm / UpstreamBaseline.SUCCESS_SCALE;
    }

    /** A recovered proxy is judged afresh: success and factor back to 1; latency history kept. */
    void resetSuccess() {
        SUCCESS.setVolatile(this, 1.0);
        FACTOR.setVolatile(this, 1.0);
    }

    double target() {
        double success = (double) SUCCESS.getVolatile(this);
        double peers = peerSuccess();
        double successTerm = peers < 0 ? success : peers <= 0 ? 1.0 : Math.min(1.0, success / peers);
        double recent = (double) RECENT.getVolatile(this);
        long peerLatency = peerLatencyNanos();
        double latencyTerm = recent > 0 && peerLatency > 0
                ? Math.min(1.0, (peerLatency + LATENCY_SLACK_NANOS) / (recent + LATENCY_SLACK_NANOS))
                : 1.0;
        return clamp(successTerm * latencyTerm, MIN_FACTOR, 1.0);
    }

    /** Puts this proxy's current numbers into the upstream's sums (joining them on the first call). */
    void publish() {
        double recent = (double) RECENT.getVolatile(this);
        if (recent > 0) {
            contribute(LATENCY_SHARE, (long) recent, true);
        }
        contribute(
                SUCCESS_SHARE, Math.round((double) SUCCESS.getVolatile(this) * UpstreamBaseline.SUCCESS_SCALE), false);
    }

    /** Takes this proxy's numbers out of the sums until the next {@link #publish} (it left {@code HEALTHY}). */
    void withdraw() {
        withdraw(LATENCY_SHARE, true);
        withdraw(SUCCESS_SHARE, false);
    }

    /** Takes this proxy's numbers out of the sums for good (it left the pool). */
    void retire() {
        long latency = (long) LATENCY_SHARE.getAndSet(this, RETIRED);
        if (latency >= 0) {
            baseline.addLatency(-latency, -1);
        }
        long success = (long) SUCCESS_SHARE.getAndSet(this, RETIRED);
        if (success >= 0) {
            baseline.addSuccess(-success, -1);
        }
    }

    private long own(VarHandle share) {
        long v = (long) share.getVolatile(this);
        return v >= 0 ? v : -1;
    }

    private void contribute(VarHandle share, long value, boolean latency) {
        for (; ; ) {
            long old = (long) share.getVolatile(this);
            if (old == RETIRED || old == value) {
                return;
            }
            if (share.compareAndSet(this, old, value)) {
                // swapped first, summed after: a racing withdraw subtracts exactly what it swapped out
                long delta = old == ABSENT ? value : value - old;
                int joined = old == ABSENT ? 1 : 0;
                if (latency) {
                    baseline.addLatency(delta, joined);
                } else {
                    baseline.addSuccess(delta, joined);
                }
                return;
            }
        }
    }

    private void withdraw(VarHandle share, boolean latency) {
        for (; ; ) {
            long old = (long) share.getVolatile(this);
            if (old < 0) {
                return; // ABSENT or RETIRED: not in the sums
            }
            if (share.compareAndSet(this, old, ABSENT)) {
                if (latency) {
                    baseline.addLatency(-old, -1);
                } else {
                    baseline.addSuccess(-old, -1);
                }
                return;
            }
        }
    }

    private void step() {
        double target = target();
        for (; ; ) {
            double current = (double) FACTOR.getVolatile(this);
            double next = clamp(clamp(target, current * (1 - MAX_STEP), current * (1 + MAX_STEP)), MIN_FACTOR, 1.0);
            if (next == current || FACTOR.compareAndSet(this, current, next)) {
                return;
            }
        }
    }

    private void blend(VarHandle field, double sample, double alpha) {
        for (; ; ) {
            double current = (double) field.getVolatile(this);
            double next = current == 0 && field != SUCCESS ? sample : current + alpha * (sample - current);
            if (next == current || field.compareAndSet(this, current, next)) {
                return;
            }
        }
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
