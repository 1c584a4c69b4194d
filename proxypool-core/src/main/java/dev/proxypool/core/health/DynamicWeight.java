package dev.proxypool.core.health;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The dynamic part of a proxy's weight (docs/design.md#slow-start, H12): EWMAs of success and latency, and a factor in
 * [{@value #MIN_FACTOR}, 1] that {@link ProxyHealth#effectiveWeight(int, long)} multiplies in.
 *
 * <p>Target factor = successEwma × min(1, baselineLatency / recentLatency): a proxy loses weight
 * when it fails, or when it gets slower than its own long-run baseline (a gradient on its own
 * history, since one proxy knows no pool-wide reference). Each update moves the factor toward
 * the target by at most {@value #MAX_STEP} of its value, so weights glide instead of oscillating.
 *
 * <p>Thread-safe and allocation-free: every field is a double updated by a CAS loop, so concurrent
 * updates never lose the step bound (a racy read-modify-write could undo a step and jump further).
 */
final class DynamicWeight {

    static final double MIN_FACTOR = 0.1;
    static final double MAX_STEP = 0.10;
    static final double SUCCESS_ALPHA = 0.1;
    static final double RECENT_LATENCY_ALPHA = 0.2;
    static final double BASELINE_LATENCY_ALPHA = 0.02;

    private static final VarHandle SUCCESS;
    private static final VarHandle RECENT;
    private static final VarHandle BASELINE;
    private static final VarHandle FACTOR;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SUCCESS = l.findVarHandle(DynamicWeight.class, "successEwma", double.class);
            RECENT = l.findVarHandle(DynamicWeight.class, "recentLatency", double.class);
            BASELINE = l.findVarHandle(DynamicWeight.class, "baselineLatency", double.class);
            FACTOR = l.findVarHandle(DynamicWeight.class, "factor", double.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through SUCCESS
    private volatile double successEwma = 1.0;

    @SuppressWarnings("unused") // accessed through RECENT; 0 = no sample yet
    private volatile double recentLatency;

    @SuppressWarnings("unused") // accessed through BASELINE; 0 = no sample yet
    private volatile double baselineLatency;

    @SuppressWarnings("unused") // accessed through FACTOR
    private volatile double factor = 1.0;

    void onSuccess(long latencyNanos) {
        blend(SUCCESS, 1.0, SUCCESS_ALPHA);
        if (latencyNanos > 0) {
            blend(RECENT, latencyNanos, RECENT_LATENCY_ALPHA);
            blend(BASELINE, latencyNanos, BASELINE_LATENCY_ALPHA);
        }
        step();
    }

    void onFailure() {
        blend(SUCCESS, 0.0, SUCCESS_ALPHA);
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

    /** A recovered proxy is judged afresh: success and factor back to 1; latency history kept. */
    void resetSuccess() {
        SUCCESS.setVolatile(this, 1.0);
        FACTOR.setVolatile(this, 1.0);
    }

    double target() {
        double success = (double) SUCCESS.getVolatile(this);
        double recent = (double) RECENT.getVolatile(this);
        double baseline = (double) BASELINE.getVolatile(this);
        double latencyTerm = recent > 0 && baseline > 0 ? Math.min(1.0, baseline / recent) : 1.0;
        return clamp(success * latencyTerm, MIN_FACTOR, 1.0);
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
