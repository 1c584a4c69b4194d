package dev.proxypool.sdk.probe;

import dev.proxypool.core.health.FailureKind;
import java.util.concurrent.atomic.LongAdder;

/** Probe outcomes since the prober was created, by outcome and by failure kind. Thread-safe. */
public final class ProbeCounters {

    private final LongAdder[] byOutcome = adders(ProbeOutcome.values().length);
    private final LongAdder[] failedByKind = adders(FailureKind.values().length);
    private final LongAdder rounds = new LongAdder();

    void outcome(ProbeOutcome o) {
        byOutcome[o.ordinal()].increment();
    }

    void failed(FailureKind kind) {
        byOutcome[ProbeOutcome.FAILED.ordinal()].increment();
        failedByKind[kind.ordinal()].increment();
    }

    void round() {
        rounds.increment();
    }

    public long count(ProbeOutcome o) {
        return byOutcome[o.ordinal()].sum();
    }

    /** Reported (FAILED) probes of this kind. */
    public long failedWith(FailureKind kind) {
        return failedByKind[kind.ordinal()].sum();
    }

    public long rounds() {
        return rounds.sum();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("ProbeCounters[rounds=").append(rounds());
        for (ProbeOutcome o : ProbeOutcome.values()) {
            sb.append(", ").append(o.wireName()).append('=').append(count(o));
        }
        return sb.append(']').toString();
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }
}
