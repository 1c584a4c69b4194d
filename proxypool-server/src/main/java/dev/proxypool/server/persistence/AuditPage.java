package dev.proxypool.server.persistence;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.OptionalLong;

/**
 * One page of the audit log, newest first.
 *
 * @param nextCursor opaque cursor of the next (older) page; empty when this is the last
 */
public record AuditPage(List<AuditEntry> entries, String nextCursor) {

    public static final int MAX_LIMIT = 1000;

    public AuditPage {
        entries = List.copyOf(entries);
    }

    /** The cursor continuing after the entry with {@code id}. */
    public static String cursorAfter(long id) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(("a" + id).getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The id a cursor continues after; empty for the first page ({@code ""}).
     *
     * @throws IllegalArgumentException for a cursor this class did not write
     */
    public static OptionalLong decode(String cursor) {
        if (cursor == null || cursor.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            String s = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
            if (!s.startsWith("a")) {
                throw new IllegalArgumentException("bad prefix");
            }
            long id = Long.parseLong(s.substring(1));
            if (id < 1 || !cursorAfter(id).equals(cursor)) {
                throw new IllegalArgumentException("not canonical");
            }
            return OptionalLong.of(id);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "cursor '" + cursor + "' is invalid (use the nextCursor of a previous page)");
        }
    }

    static void checkLimit(int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
    }
}
