package dev.proxypool.sdk.validate;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Validation results counted by {@link Verdict} and by {@link RejectReason}: low-cardinality
 * numbers for metrics and progress lines. Thread-safe (striped adders; recording is contention-free).
 */
public final class ValidationCounters {

    private final LongAdder[] byVerdict = adders(Verdict.values().length);
    private final LongAdder[] byReason = adders(RejectReason.values().length);

    public void record(ValidationResult r) {
        byVerdict[r.verdict().ordinal()].increment();
        if (r instanceof ValidationResult.Rejected rej) {
            byReason[rej.reason().ordinal()].increment();
        }
    }

    public long count(Verdict v) {
        return byVerdict[v.ordinal()].sum();
    }

    public long count(RejectReason r) {
        return byReason[r.ordinal()].sum();
    }

    public long total() {
        long n = 0;
        for (LongAdder a : byVerdict) {
            n += a.sum();
        }
        return n;
    }

    /** Rejections by reason, reasons never seen omitted. */
    public Map<RejectReason, Long> rejectedByReason() {
        Map<RejectReason, Long> m = new EnumMap<>(RejectReason.class);
        for (RejectReason r : RejectReason.values()) {
            long n = byReason[r.ordinal()].sum();
            if (n > 0) {
                m.put(r, n);
            }
        }
        return m;
    }

    @Override
    public String toString() {
        return "ValidationCounters[elite=" + count(Verdict.ELITE) + ", anonymous=" + count(Verdict.ANONYMOUS)
                + ", rejected=" + count(Verdict.REJECTED) + " " + rejectedByReason() + "]";
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }
}
