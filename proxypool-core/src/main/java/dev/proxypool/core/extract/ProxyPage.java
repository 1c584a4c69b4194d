package dev.proxypool.core.extract;

import java.util.List;

/**
 * One page of {@link PoolStore#list}: proxies in ascending id order, and the cursor of the next page.
 * A page may hold fewer than the limit while more follow (a store may stop scanning early); only an
 * empty {@code nextCursor} means the listing is complete.
 *
 * @param proxies    at most the requested limit
 * @param nextCursor the cursor of the next page, or empty when this is the last
 */
public record ProxyPage(List<StoredProxy> proxies, String nextCursor) {

    /**
     * Copies the list.
     *
     * @throws IllegalArgumentException if {@code nextCursor} is null
     *     (a null list or element throws {@link NullPointerException})
     */
    public ProxyPage {
        proxies = List.copyOf(proxies);
        if (nextCursor == null) {
            throw new IllegalArgumentException("nextCursor must not be null (empty = last page)");
        }
    }

    /**
     * Whether to ask for another page.
     *
     * @return true unless {@link #nextCursor()} is empty
     */
    public boolean hasMore() {
        return !nextCursor.isEmpty();
    }
}
