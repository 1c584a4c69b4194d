package dev.proxypool.sdk.coordination;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads what {@link FrameWriter} wrote, checking every length and index against the bytes left so
 * a corrupt or hostile frame fails with {@link SnapshotFormatException} instead of allocating
 * without bound or reading past the end. Not thread-safe; one reader per frame.
 */
final class FrameReader {

    private final byte[] buf;
    private final int end;
    private int pos;
    private final List<String> dictionary = new ArrayList<>();

    FrameReader(byte[] buf, int off, int end) {
        this.buf = buf;
        this.pos = off;
        this.end = end;
    }

    int position() {
        return pos;
    }

    int remaining() {
        return end - pos;
    }

    int byte1() {
        need(1);
        return buf[pos++] & 0xFF;
    }

    long fixed64() {
        need(8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (buf[pos++] & 0xFF);
        }
        return v;
    }

    int fixed32() {
        need(4);
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v = (v << 8) | (buf[pos++] & 0xFF);
        }
        return v;
    }

    long varint() {
        long v = unsigned();
        if (v < 0) {
            throw new SnapshotFormatException("varint at " + pos + " is out of range");
        }
        return v;
    }

    /** A varint that must fit {@code 0..max}; {@code what} names the field in the error. */
    int count(String what, int max) {
        long v = varint();
        if (v > max) {
            throw new SnapshotFormatException(what + " " + v + " is over its bound " + max);
        }
        return (int) v;
    }

    long signed() {
        long u = unsigned();
        return (u >>> 1) ^ -(u & 1);
    }

    String string() {
        int len = count("string length", remaining());
        String s = new String(buf, pos, len, StandardCharsets.UTF_8);
        pos += len;
        return s;
    }

    String dict() {
        long ref = varint();
        if (ref == 0) {
            String s = string();
            dictionary.add(s);
            return s;
        }
        if (ref > dictionary.size()) {
            throw new SnapshotFormatException(
                    "dictionary reference " + ref + " is past the " + dictionary.size() + " strings seen");
        }
        return dictionary.get((int) ref - 1);
    }

    void bytes(byte[] into, int off, int len) {
        need(len);
        System.arraycopy(buf, pos, into, off, len);
        pos += len;
    }

    private long unsigned() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            need(1);
            byte b = buf[pos++];
            v |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return v;
            }
        }
        throw new SnapshotFormatException("varint at " + pos + " is longer than 10 bytes");
    }

    private void need(int n) {
        if (n > end - pos) {
            throw new SnapshotFormatException("frame is truncated at byte " + pos + " (needs " + n + " more)");
        }
    }
}
