package dev.proxypool.cli.admin;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Cell text of JSON tree values for the admin tables (the tables themselves are {@link dev.proxypool.cli.Table}). */
final class AdminTable {

    private AdminTable() {}

    /** A JSON tree value as one cell: {@code -} for null/absent, lists comma-joined, objects as k=v. */
    static String text(Object v) {
        return switch (v) {
            case null -> "-";
            case String s -> s.isEmpty() ? "-" : s;
            case BigDecimal d -> d.stripTrailingZeros().toPlainString();
            case List<?> l ->
                l.isEmpty()
                        ? "-"
                        : String.join(",", l.stream().map(AdminTable::text).toList());
            case Map<?, ?> m ->
                m.isEmpty()
                        ? "-"
                        : String.join(
                                ",",
                                m.entrySet().stream()
                                        .map(e -> e.getKey() + "=" + text(e.getValue()))
                                        .toList());
            default -> String.valueOf(v);
        };
    }

    /** A remaining lifetime: {@code 1h05m}, {@code 29m00s}, {@code 45s}; {@code never} for null. */
    static String ttl(Object seconds) {
        if (!(seconds instanceof Number n)) {
            return "never";
        }
        long s = n.longValue();
        if (s >= 3600) {
            return String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60);
        }
        if (s >= 60) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return s + "s";
    }
}
