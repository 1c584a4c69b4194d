package dev.proxypool.sdk.coordination;

import dev.proxypool.core.model.Proxy;
import java.time.Instant;
import java.util.List;

/**
 * A complete pool content a worker received: what {@link SnapshotConsumer} gets after each applied
 * version (the engine builds its {@code PoolSnapshot} from {@link #proxies()}).
 *
 * @param epoch       the control plane lineage
 * @param version     the control plane's version (not the engine's local snapshot version)
 * @param publishedAt when the control plane published it (its wall clock)
 * @param validUntil  end of its validity period
 * @param proxies     every proxy, in publish order; immutable
 * @param resynced    true when it came from a full snapshot (first load, version gap, reset),
 *                    false when from a delta applied to the previous version
 */
public record ReceivedSnapshot(
        long epoch, long version, Instant publishedAt, Instant validUntil, List<Proxy> proxies, boolean resynced) {

    public ReceivedSnapshot {
        proxies = List.copyOf(proxies);
    }

    @Override
    public String toString() {
        return "ReceivedSnapshot[v" + version + ", " + proxies.size() + " proxies, publishedAt=" + publishedAt
                + ", validUntil=" + validUntil + (resynced ? ", resynced" : "") + "]";
    }
}
