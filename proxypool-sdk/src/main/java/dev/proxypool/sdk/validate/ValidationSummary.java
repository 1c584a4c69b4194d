package dev.proxypool.sdk.validate;

import java.time.Duration;
import java.util.Map;

/**
 * The totals of one {@link Validator#validateAll} run.
 *
 * @param rejectedByReason  rejections by reason (reasons never seen omitted)
 * @param maxHeldCandidates the most candidates the run held at once (queued or being validated);
 *                          never above queue capacity + concurrency
 * @param elapsed           wall time of the run, by the validator's ticker
 */
public record ValidationSummary(
        long total,
        long elite,
        long anonymous,
        long rejected,
        Map<RejectReason, Long> rejectedByReason,
        int maxHeldCandidates,
        Duration elapsed) {

    public ValidationSummary {
        rejectedByReason = Map.copyOf(rejectedByReason);
    }

    /** Throughput of the run; 0 for an empty or instant run. */
    public double candidatesPerSecond() {
        long nanos = elapsed.toNanos();
        return nanos <= 0 ? 0 : total * 1e9 / nanos;
    }

    public long accepted() {
        return elite + anonymous;
    }
}
