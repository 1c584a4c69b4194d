package dev.proxypool.sdk.provider;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.sequential.FetchOutcome;
import java.util.Set;

/** Classification of a fetch against the pool, which an adapter cannot know. */
public final class FetchReports {

    private FetchReports() {}

    /**
     * The outcome of {@code report} against the keys already in the pool: errors stay errors;
     * otherwise {@code Success(new)} when some candidates are new, {@code DuplicateOnly} when all
     * were known, {@code Empty} when there were none (docs/design.md#collection-pipeline, P5).
     *
     * @param report the adapter's report
     * @param known  the keys in the pool
     * @return the outcome the sequential strategy acts on
     */
    public static FetchOutcome classify(FetchReport report, Set<ProxyKey> known) {
        if (report.outcome() instanceof FetchOutcome.Error) {
            return report.outcome();
        }
        int fresh = 0;
        for (Proxy p : report.candidates()) {
            if (!known.contains(p.key())) {
                fresh++;
            }
        }
        return FetchOutcome.classify(fresh, report.candidates().size() - fresh);
    }
}
