package dev.proxypool.sdk.provider;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Reads UTF-8 lines (any line ending, a leading byte-order mark dropped) with 1-based numbers. */
final class Lines {

    @FunctionalInterface
    interface Consumer {
        void line(long number, String line) throws FetchFailure;
    }

    private Lines() {}

    static void forEach(InputStream in, Consumer consumer) throws IOException, FetchFailure {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        long n = 0;
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            n++;
            if (n == 1 && !line.isEmpty() && line.charAt(0) == '\uFEFF') {
                line = line.substring(1);
            }
            consumer.line(n, line);
        }
    }

    /** Blank lines and lines starting with {@code #} carry no record. */
    static boolean skippable(String line) {
        String t = line.strip();
        return t.isEmpty() || t.charAt(0) == '#';
    }
}
