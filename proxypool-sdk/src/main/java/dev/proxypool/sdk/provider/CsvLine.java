package dev.proxypool.sdk.provider;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one CSV line (RFC 4180 quoting on a single line): fields separated by the delimiter,
 * a field in double quotes may hold the delimiter and {@code ""} for a quote. Records never span
 * lines here, so one broken line cannot swallow the rest of the file.
 */
final class CsvLine {

    private CsvLine() {}

    /** The fields of {@code line}, or null when it is broken (unclosed quote, text after a closing quote). */
    static List<String> split(String line, char delimiter) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        int i = 0;
        int n = line.length();
        while (true) {
            // skip spaces before a quoted field
            int j = i;
            while (j < n && line.charAt(j) == ' ') {
                j++;
            }
            if (j < n && line.charAt(j) == '"') {
                i = j + 1;
                boolean closed = false;
                while (i < n) {
                    char c = line.charAt(i);
                    if (c == '"') {
                        if (i + 1 < n && line.charAt(i + 1) == '"') {
                            field.append('"');
                            i += 2;
                            continue;
                        }
                        closed = true;
                        i++;
                        break;
                    }
                    field.append(c);
                    i++;
                }
                if (!closed) {
                    return null;
                }
                while (i < n && line.charAt(i) == ' ') {
                    i++;
                }
                if (i < n && line.charAt(i) != delimiter) {
                    return null;
                }
            } else {
                while (i < n && line.charAt(i) != delimiter) {
                    char c = line.charAt(i);
                    if (c == '"') {
                        return null; // a quote inside an unquoted field
                    }
                    field.append(c);
                    i++;
                }
            }
            fields.add(field.toString().strip());
            field.setLength(0);
            if (i >= n) {
                return fields;
            }
            i++; // past the delimiter
        }
    }
}
