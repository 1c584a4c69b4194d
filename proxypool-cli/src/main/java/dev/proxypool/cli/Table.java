package dev.proxypool.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain text table for people: columns padded to their widest cell, two spaces apart. */
public final class Table {

    private final String[] headers;
    private final List<String[]> rows = new ArrayList<>();

    public Table(String... headers) {
        this.headers = headers.clone();
    }

    public void row(String... cells) {
        if (cells.length != headers.length) {
            throw new IllegalArgumentException("a row needs " + headers.length + " cells, got " + cells.length);
        }
        rows.add(cells.clone());
    }

    public int size() {
        return rows.size();
    }

    public void print(PrintWriter out) {
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
}
