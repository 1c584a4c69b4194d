package dev.proxypool.server.listener;

/**
 * Checks a request body's chunked framing (RFC 9112 7.1) on the REST listener as its bytes arrive, before
 * Helidon's chunk reader sees them: Helidon 4.5 answers a chunk size that is not hexadecimal or overflows an
 * int with a 500, a stack trace and a connection kept open for more body. Accepted: {@code 1*HEXDIG} up to
 * {@value #MAX_SIZE_DIGITS} digits, CRLF, the data, CRLF, and a last chunk {@code 0} CRLF CRLF. Refused:
 * anything else, including chunk extensions and trailer fields, which Helidon's reader cannot parse either.
 */
public final class ChunkedFraming {

    /** Seven hex digits: below 256 MiB, far above any body the API takes, and never an int overflow. */
    static final int MAX_SIZE_DIGITS = 7;

    private static final int SIZE_FIRST = 0;
    private static final int SIZE = 1;
    private static final int SIZE_LF = 2;
    private static final int DATA = 3;
    private static final int DATA_CR = 4;
    private static final int DATA_LF = 5;
    private static final int LAST_CR = 6;
    private static final int LAST_LF = 7;
    private static final int DONE = 8;

    private int state = SIZE_FIRST;
    private int digits;
    private long remaining;
    private int sizeLines;

    /** The body's framing is broken; the message says how (no client bytes in it). */
    static final class Violation extends Exception {
        Violation(String message) {
            super(message, null, false, false);
        }
    }

    boolean done() {
        return state == DONE;
    }

    /** The first chunk-size line has arrived whole (and was well formed). */
    boolean firstSizeRead() {
        return sizeLines > 0;
    }

    /**
     * Feeds {@code bytes[from, to)}.
     *
     * @return the index just after the body's last byte, or -1 when the body goes on
     * @throws Violation at the first byte that breaks the framing
     */
    int feed(byte[] bytes, int from, int to) throws Violation {
        int i = from;
        while (i < to && state != DONE) {
            if (state == DATA) {
                int n = (int) Math.min(remaining, to - i);
                remaining -= n;
                i += n;
                if (remaining == 0) {
                    state = DATA_CR;
                }
                continue;
            }
            byte b = bytes[i++];
            switch (state) {
                case SIZE_FIRST, SIZE -> {
                    int hex = Character.digit(b, 16);
                    if (hex >= 0) {
                        if (++digits > MAX_SIZE_DIGITS) {
                            throw new Violation("chunk size longer than " + MAX_SIZE_DIGITS + " hex digits");
                        }
                        remaining = remaining * 16 + hex;
                        state = SIZE;
                    } else if (state == SIZE && b == '\r') {
                        state = SIZE_LF;
                    } else if (state == SIZE && (b == ';' || b == ' ' || b == '\t')) {
                        throw new Violation("chunk extensions are not accepted");
                    } else {
                        throw new Violation("chunk size is not hexadecimal");
                    }
                }
                case SIZE_LF -> {
                    expect(b, '\n', "chunk size line not ended by CRLF");
                    digits = 0;
                    sizeLines++;
                    state = remaining == 0 ? LAST_CR : DATA;
                }
                case DATA_CR -> {
                    expect(b, '\r', "chunk data longer than its size");
                    state = DATA_LF;
                }
                case DATA_LF -> {
                    expect(b, '\n', "chunk data not ended by CRLF");
                    state = SIZE_FIRST;
                }
                case LAST_CR -> {
                    expect(b, '\r', "trailer fields are not accepted");
                    state = LAST_LF;
                }
                case LAST_LF -> {
                    expect(b, '\n', "last chunk not ended by CRLF");
                    state = DONE;
                }
                default -> throw new IllegalStateException("state " + state);
            }
        }
        return state == DONE ? i : -1;
    }

    private static void expect(byte b, char wanted, String otherwise) throws Violation {
        if (b != wanted) {
            throw new Violation(otherwise);
        }
    }
}
