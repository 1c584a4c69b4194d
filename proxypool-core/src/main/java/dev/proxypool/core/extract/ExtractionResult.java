package dev.proxypool.core.extract;

import java.util.List;

/**
 * The outcome of {@link PoolStore#extract}: what left the pool, or why nothing did. The server maps
 * {@link Extracted} to {@code 200} and {@link Insufficient} to {@code 409 insufficient_proxies}.
 */
public sealed interface ExtractionResult {

    /**
     * Proxies that left the pool, each exactly once across all callers. May be shorter than the
     * requested count, or empty, for {@link Fulfillment#PARTIAL}.
     *
     * @param proxies the extracted proxies, at most the requested count; an unmodifiable copy
     */
    record Extracted(List<ExtractedProxy> proxies) implements ExtractionResult {
        /** Copies the list. */
        public Extracted {
            proxies = List.copyOf(proxies);
        }

        /**
         * How many proxies left the pool.
         *
         * @return the list's size, possibly 0
         */
        public int count() {
            return proxies.size();
        }
    }

    /**
     * {@link Fulfillment#ALL_OR_NOTHING} could not be met; nothing was extracted.
     *
     * @param available how many the same request would have extracted with {@code partial}
     *                  (matching proxies, capped by the gateway reserve), always below the count
     */
    record Insufficient(int available) implements ExtractionResult {
        /**
         * Checks the count.
         *
         * @throws IllegalArgumentException if it is negative
         */
        public Insufficient {
            if (available < 0) {
                throw new IllegalArgumentException("available must not be negative, got " + available);
            }
        }
    }
}
