package dev.proxypool.cli.admin;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Text output for people: a table padded to its widest cells, and the cell text of JSON tree values. */
final class AdminTable {

    private final String[] headers;
    private final List<String[]> rows = new ArrayList<>();

    AdminTable(String... headers) {
        this.headers = headers.clone();
    }

    void row(String... cells) {
        if (cells.length != headers.length) {
            throw new IllegalArgumentException("a row needs " + headers.length + " cells, got " + cells.length);
        }
        rows.add(cells.clone());
    }

    int size() {
        return rows.size();
    }

    void print(PrintWriter out) {
        int[] width = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            width[i] = headers[i].length();
        }
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        line(out, headers, width);
        for (String[] r : rows) {
            line(out, r, width);
        }
    }

    private static void line(PrintWriter out, String[] cells, int[] width) {
        StringBuilder sb = new StringBuilder(128);
        for (int i = 0; i < cells.length; i++) {
            sb.append(cells[i]);
            if (i < cells.length - 1) {
                sb.repeat(' ', width[i] - cells[i].length() + 2);
            }
        }
        out.println(sb.toString().stripTrailing());
    }

    /** A JSON tree value as one cell: {@code -} for null/absent, lists comma-joined, objects as k=v. */
    static String text(Object v) {
        return switch (v) {
            case null -> "-";
            case String s -> s.isEmpty() ? "-" : s;
            case BigDecimal d -> d.stripTrailingZeros().toPlainString();
            case List<?> l -> l.isEmpty() ? "-" : String.join(",", l.stream().map(AdminTable::text).toList());
            case Map<?, ?> m -> m.isEmpty() ? "-" : String.join(",", m.entrySet().stream()
                    .map(e -> e.getKey() + "=" + text(e.getValue())).toList());
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
