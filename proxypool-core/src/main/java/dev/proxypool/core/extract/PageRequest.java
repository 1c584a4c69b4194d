package dev.proxypool.core.extract;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * One page of a listing ordered by proxy id: at most {@code limit} proxies whose id is greater than
 * the cursor's. The cursor is opaque to callers (base64url of the last id returned) and portable
 * between store implementations; the empty string starts at the beginning.
 *
 * @param cursor {@link #FIRST} or a cursor from {@link ProxyPage#nextCursor()}
 * @param limit  1..{@value #MAX_LIMIT}
 */
public record PageRequest(String cursor, int limit) {

    /** The cursor of the first page: empty. */
    public static final String FIRST = "";
    /** The largest page a caller may ask for. */
    public static final int MAX_LIMIT = 1000;

    /**
     * Validates the limit and that the cursor is one a store issued.
     *
     * @throws IllegalArgumentException if the cursor is null or not canonical base64url of an id,
     *     or the limit is out of range
     */
    public PageRequest {
        if (cursor == null) {
            throw new IllegalArgumentException("cursor must not be null (use PageRequest.FIRST)");
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
        decode(cursor);
    }

    /**
     * The first page.
     *
     * @param limit 1..{@value #MAX_LIMIT}
     * @return the request
     * @throws IllegalArgumentException if the limit is out of range
     */
    public static PageRequest first(int limit) {
        return new PageRequest(FIRST, limit);
    }

    /**
     * The id after which this page starts; empty for the first page.
     *
     * @return the decoded id, or empty for {@link #FIRST}
     */
    public Optional<String> afterId() {
        return cursor.isEmpty() ? Optional.empty() : Optional.of(decode(cursor));
    }

    /**
     * The cursor of the page that follows {@code lastId}: what a store puts in {@link ProxyPage#nextCursor()}.
     *
     * @param lastId the last id of the current page, non-empty
     * @return base64url (no padding) of the id
     * @throws IllegalArgumentException if {@code lastId} is null or empty
     */
    public static String cursorAfter(String lastId) {
        if (lastId == null || lastId.isEmpty()) {
            throw new IllegalArgumentException("a cursor needs the last id of a page");
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(lastId.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(String cursor) {
        if (cursor.isEmpty()) {
            return "";
        }
        try {
            String id = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (id.isEmpty() || !cursorAfter(id).equals(cursor)) {
                throw new IllegalArgumentException("not canonical");
            }
            return id;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "cursor '" + cursor + "' is invalid (use the nextCursor of a previous page)");
        }
    }
}
