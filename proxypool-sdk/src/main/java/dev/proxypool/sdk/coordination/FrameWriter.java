package dev.proxypool.sdk.coordination;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A growable byte buffer with the frame's primitive encodings: unsigned LEB128 varints, zigzag
 * varlongs, fixed 8-byte longs (big-endian), length-prefixed UTF-8, and <em>dictionary</em>
 * strings: a value seen before in this frame is written as its table index (varint {@code i + 1}),
 * a new one as {@code 0} plus the literal. Upstream, provider, credentialRef and label texts repeat
 * across thousands of proxies, so the table makes the plain frame small without compression.
 * Not thread-safe; one writer per frame.
 */
final class FrameWriter {

    private byte[] buf;
    private int size;
    private final Map<String, Integer> dictionary = new HashMap<>();

    FrameWriter(int initialCapacity) {
        this.buf = new byte[Math.max(64, initialCapacity)];
    }

    int size() {
        return size;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    /** The internal buffer (valid up to {@link #size()}). */
    byte[] buffer() {
        return buf;
    }

    void byte1(int b) {
        ensure(1);
        buf[size++] = (byte) b;
    }

    void bytes(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, size, len);
        size += len;
    }

    void fixed64(long v) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buf[size++] = (byte) (v >>> shift);
        }
    }

    void fixed32(int v) {
        ensure(4);
        for (int shift = 24; shift >= 0; shift -= 8) {
            buf[size++] = (byte) (v >>> shift);
        }
    }

    /** Unsigned varint of a non-negative long. */
    void varint(long v) {
        if (v < 0) {
            throw new IllegalArgumentException("varint must not be negative, got " + v);
        }
        unsigned(v);
    }

    /** Zigzag varint: small magnitudes of either sign stay short. */
    void signed(long v) {
        unsigned((v << 1) ^ (v >> 63));
    }

    /** LEB128 of all 64 bits of {@code v}, read as unsigned. */
    private void unsigned(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[size++] = (byte) v;
    }

    void string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        varint(b.length);
        bytes(b, 0, b.length);
    }

    void dict(String s) {
        Integer at = dictionary.get(s);
        if (at != null) {
            varint(at + 1L);
            return;
        }
        varint(0);
        string(s);
        dictionary.put(s, dictionary.size());
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }
}
