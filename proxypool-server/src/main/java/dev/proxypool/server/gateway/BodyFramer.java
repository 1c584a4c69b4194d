package dev.proxypool.server.gateway;

import dev.proxypool.core.wire.Tokens;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * A message body's framing kept incrementally over the bytes as they arrive on an event loop, the
 * rules the gateway applies to every message (Content-Length, chunked with strict size lines and trailers, de-chunked
 * for an HTTP/1.0 client, until close): {@link #feed} hands on what to relay and tells when the body
 * ended, leaving the bytes after it in the buffer. Used on one loop only.
 */
final class BodyFramer {

    /** The peer broke the body's framing (a bad size line, a missing CRLF, a bad trailer). */
    static final class FramingException extends Exception {
        FramingException(String message) {
            super(message, null, false, false);
        }
    }

    private static final int MAX_CHUNK_LINE = 4096;

    private enum Phase {
        LENGTH,
        SIZE_LINE,
        DATA,
        DATA_END,
        TRAILER,
        UNTIL_CLOSE,
        DONE
    }

    private final boolean dechunk;
    private final int maxTrailerBytes;
    private final ByteBufAllocator alloc;
    private Phase phase;
    private long left;
    private final StringBuilder line = new StringBuilder();
    private int trailerBytes;

    /**
     * @param framing a {@link Framing} value: a length, {@link Framing#CHUNKED} or {@link Framing#UNTIL_CLOSE}
     * @param dechunk relay a chunked body's data only (to an HTTP/1.0 client)
     */
    BodyFramer(long framing, boolean dechunk, int maxTrailerBytes, ByteBufAllocator alloc) {
        this.dechunk = dechunk;
        this.maxTrailerBytes = maxTrailerBytes;
        this.alloc = alloc;
        if (framing > 0) {
            phase = Phase.LENGTH;
            left = framing;
        } else if (framing == Framing.CHUNKED) {
            phase = Phase.SIZE_LINE;
        } else if (framing == Framing.UNTIL_CLOSE) {
            phase = Phase.UNTIL_CLOSE;
        } else {
            phase = Phase.DONE;
        }
    }

    boolean done() {
        return phase == Phase.DONE;
    }

    /** True when only the peer's close ends the body. */
    boolean untilClose() {
        return phase == Phase.UNTIL_CLOSE;
    }

    /**
     * Consumes body bytes from {@code in}, handing on what to relay ({@code out} takes ownership).
     *
     * @return true when the body ended (bytes after it stay in {@code in})
     */
    boolean feed(ByteBuf in, Consumer<ByteBuf> out) throws FramingException {
        while (in.isReadable() && phase != Phase.DONE) {
            switch (phase) {
                case LENGTH -> {
                    int n = (int) Math.min(left, in.readableBytes());
                    out.accept(in.readRetainedSlice(n));
                    left -= n;
                    if (left == 0) {
                        phase = Phase.DONE;
                    }
                }
                case UNTIL_CLOSE -> out.accept(in.readRetainedSlice(in.readableBytes()));
                case DATA -> {
                    int n = (int) Math.min(left, in.readableBytes());
                    out.accept(in.readRetainedSlice(n));
                    left -= n;
                    if (left == 0) {
                        phase = Phase.DATA_END;
                    }
                }
                case SIZE_LINE -> {
                    String l = readLine(in, MAX_CHUNK_LINE);
                    if (l == null) {
                        continue;
                    }
                    long size = chunkSize(l);
                    if (size < 0) {
                        throw new FramingException("bad chunk size line");
                    }
                    if (!dechunk) {
                        out.accept(text(l + "\r\n"));
                    }
                    if (size == 0) {
                        phase = Phase.TRAILER;
                        trailerBytes = 0;
                    } else {
                        left = size;
                        phase = Phase.DATA;
                    }
                }
                case DATA_END -> {
                    String l = readLine(in, 2);
                    if (l == null) {
                        continue;
                    }
                    if (!l.isEmpty()) {
                        throw new FramingException("chunk data not followed by CRLF");
                    }
                    if (!dechunk) {
                        out.accept(text("\r\n"));
                    }
                    phase = Phase.SIZE_LINE;
                }
                case TRAILER -> {
                    String t = readLine(in, maxTrailerBytes - trailerBytes + 2);
                    if (t == null) {
                        continue;
                    }
                    if (t.isEmpty()) {
                        if (!dechunk) {
                            out.accept(text("\r\n"));
                        }
                        phase = Phase.DONE;
                        continue;
                    }
                    trailerBytes += t.length() + 2;
                    if (trailerBytes > maxTrailerBytes || t.indexOf(':') <= 0 || !Tokens.isFieldValue(t)) {
                        throw new FramingException("bad chunked trailer");
                    }
                    if (!dechunk) {
                        out.accept(text(t + "\r\n"));
                    }
                }
                case DONE -> {
                    // the loop ends
                }
            }
        }
        return phase == Phase.DONE;
    }

    /** A line ending in LF (a CR right before it dropped) once whole, else null with its bytes kept. */
    private String readLine(ByteBuf in, int max) throws FramingException {
        while (in.isReadable()) {
            byte b = in.readByte();
            if (b == '\n') {
                int len = line.length();
                if (len + 1 > max) {
                    throw new FramingException("chunk framing line too long");
                }
                if (len > 0 && line.charAt(len - 1) == '\r') {
                    line.setLength(len - 1);
                }
                String s = line.toString();
                line.setLength(0);
                return s;
            }
            line.append((char) (b & 0xff));
            if (line.length() >= max) {
                throw new FramingException("chunk framing line too long");
            }
        }
        return null;
    }

    private ByteBuf text(String s) {
        ByteBuf b = alloc.buffer(s.length());
        b.writeCharSequence(s, StandardCharsets.ISO_8859_1);
        return b;
    }

    /**
     * The size of a chunk-size line ({@code 1a;ext=1}): hex digits, at most 15 of them, then optional
     * whitespace and extensions; -1 for anything else (a control character, no digits, an overflow).
     */
    static long chunkSize(String line) {
        if (!Tokens.isFieldValue(line)) {
            return -1;
        }
        int end = line.indexOf(';');
        if (end < 0) {
            end = line.length();
        }
        while (end > 0 && Tokens.isOws(line.charAt(end - 1))) {
            end--;
        }
        if (end == 0 || end > 15) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < end; i++) {
            int d = Character.digit(line.charAt(i), 16);
            if (d < 0) {
                return -1;
            }
            v = (v << 4) | d;
        }
        return v;
    }
}
