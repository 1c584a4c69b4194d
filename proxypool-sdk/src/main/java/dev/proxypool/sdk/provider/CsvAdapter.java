package dev.proxypool.sdk.provider;

import dev.proxypool.core.sequential.FetchOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code csv}: a header row naming the columns, then one proxy a row; columns map to normalized
 * fields through {@code fields} ({@code host: ip}, {@code labels.country: country_code}).
 * A row that is broken (unclosed quote, wrong column count) is dropped as {@code malformed_record}
 * with its line number; blank lines are skipped. A missing or broken header is
 * {@link FetchOutcome.ErrorKind#PARSE}. Settings: {@code path | url (+ tokenEnv | username, passwordEnv,
 * timeout)}, {@code delimiter} (one character, default {@code ,}), and the common ones.
 */
final class CsvAdapter implements ProviderAdapter {

    static final String TYPE = "csv";

    private final SourceFetch fetch;

    CsvAdapter(ProviderConfig config, ProviderEnvironment env) {
        Settings settings = new Settings(config, Settings.remoteAnd("path", "delimiter"));
        String d = settings.get("delimiter").orElse(",");
        if (d.equals("\\t") || d.equals("tab")) {
            d = "\t";
        }
        if (d.length() != 1 || d.charAt(0) == '"') {
            throw new IllegalArgumentException(
                    settings.key("delimiter") + ": '" + d + "' must be one character, not '\"'");
        }
        char delimiter = d.charAt(0);
        CandidateMapper mapper = new CandidateMapper(config, settings, new FieldMapping(config));
        this.fetch = new SourceFetch(
                config,
                env,
                SourceFetch.source(settings, env, true),
                mapper,
                (in, out) -> new Rows(delimiter, out).read(in));
    }

    @Override
    public FetchReport fetch(FetchContext ctx) {
        return fetch.fetch(ctx);
    }

    /** One parse: the header, then rows keyed by it. */
    private static final class Rows {
        private final char delimiter;
        private final ReportBuilder out;
        private List<String> header;

        Rows(char delimiter, ReportBuilder out) {
            this.delimiter = delimiter;
            this.out = out;
        }

        void read(InputStream in) throws IOException, FetchFailure {
            Lines.forEach(in, this::line);
            if (header == null) {
                throw new FetchFailure(FetchOutcome.ErrorKind.PARSE, "no header row");
            }
        }

        private void line(long n, String line) throws FetchFailure {
            if (line.isBlank()) {
                return;
            }
            List<String> cells = CsvLine.split(line, delimiter);
            if (header == null) {
                header = header(cells, n);
                return;
            }
            if (cells == null || cells.size() != header.size()) {
                out.malformed(n);
                return;
            }
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < cells.size(); i++) {
                row.put(header.get(i), cells.get(i));
            }
            out.record(n, RawRecord.ofMap(row));
        }
    }

    private static List<String> header(List<String> cells, long line) throws FetchFailure {
        if (cells == null || cells.isEmpty() || cells.stream().anyMatch(String::isEmpty)) {
            throw new FetchFailure(FetchOutcome.ErrorKind.PARSE, "header row at line " + line + " is broken");
        }
        if (Set.copyOf(cells).size() != cells.size()) {
            throw new FetchFailure(FetchOutcome.ErrorKind.PARSE, "header row names a column twice");
        }
        return cells;
    }
}
