package dev.proxypool.sdk.coordination;

import dev.proxypool.core.model.Proxy;
import java.util.List;

/**
 * One unit of snapshot distribution, as {@link SnapshotCodec} writes it to Redis: the full content
 * of a version, the change from the previous version, or a marker saying the content was replaced
 * wholesale (control-plane restart, uncertain previous publish) so workers must load the full one.
 * Frames carry pool content only: proxies with their credentialRef, never secrets, never runtime
 * state (capacity, health), which is each worker's own.
 */
public sealed interface SnapshotFrame {

    SnapshotHeader header();

    default long version() {
        return header().version();
    }

    /** Every proxy of {@code header().version()}. */
    record Full(SnapshotHeader header, List<Proxy> proxies) implements SnapshotFrame {
        public Full {
            proxies = List.copyOf(proxies);
            if (proxies.size() != header.size()) {
                throw new IllegalArgumentException(
                        "full snapshot lists " + proxies.size() + " proxies but its header says " + header.size());
            }
        }
    }

    /**
     * The change from {@code fromVersion} (always {@code version - 1}) to {@code header().version()}:
     * proxies added or changed (whole records), and ids removed. An empty delta renews validity.
     */
    record Delta(SnapshotHeader header, long fromVersion, List<Proxy> upserts, List<String> removed)
            implements SnapshotFrame {
        public Delta {
            upserts = List.copyOf(upserts);
            removed = List.copyOf(removed);
            if (fromVersion != header.version() - 1) {
                throw new IllegalArgumentException("delta to version " + header.version() + " must start at "
                        + (header.version() - 1) + ", not " + fromVersion);
            }
        }

        public boolean isEmpty() {
            return upserts.isEmpty() && removed.isEmpty();
        }
    }

    /** Version {@code header().version()} replaced the content without a delta: load the full snapshot. */
    record Reset(SnapshotHeader header, long fromVersion) implements SnapshotFrame {
        public Reset {
            if (fromVersion != header.version() - 1) {
                throw new IllegalArgumentException("reset to version " + header.version() + " must start at "
                        + (header.version() - 1) + ", not " + fromVersion);
            }
        }
    }
}
