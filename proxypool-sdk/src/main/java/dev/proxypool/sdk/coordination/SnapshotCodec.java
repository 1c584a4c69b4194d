package dev.proxypool.sdk.coordination;

import dev.proxypool.core.model.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The wire format of snapshot distribution: a compact, length-prefixed binary frame with a CRC.
 * <pre>
 * magic      3 bytes "PPS", format 1 byte (1)
 * kind       byte  1 full, 2 delta, 3 reset
 * flags      byte  bit0: body deflated
 * epoch      8 bytes
 * version    varint
 * from       varint                 (delta and reset only; always version - 1)
 * published  zigzag varint epoch ms
 * validFor   varint ms              (validUntil - published)
 * size       varint                 proxies in the resulting content
 * digest     8 bytes                {@link ContentDigest} of the resulting content
 * body       plain: varint length + bytes; deflated: varint plain length, varint length + bytes
 *            full: varint n + n proxies; delta: varint n + n proxies, varint m + m ids; reset: empty
 * crc        4 bytes CRC32C of every byte before it
 * </pre>
 * Proxies are laid out by {@link ProxyRecord}; repeated texts (upstream, provider, label values)
 * go through a per-frame dictionary, so the plain encoding of 100,000 proxies is already small
 * and deflate mostly squeezes the unique ids and addresses. A one-proxy delta is about a hundred
 * bytes (measured in {@code SnapshotCodecTest} and {@code benchmarks/cluster}).
 *
 * <p>Decoding checks the CRC first, then every length and count against the bytes left, and caps
 * the inflated size ({@link #MAX_BODY_BYTES}); any fault is a {@link SnapshotFormatException}.
 * Thread-safe: instances hold only their settings.
 */
public final class SnapshotCodec {

    /** Largest body accepted when decoding (inflated): a bound against corrupt or hostile frames. */
    public static final int MAX_BODY_BYTES = 256 << 20;

    static final byte[] MAGIC = {'P', 'P', 'S'};
    static final int FORMAT = 1;
    private static final int FULL = 1;
    private static final int DELTA = 2;
    private static final int RESET = 3;
    private static final int DEFLATED = 1;
    /** Smallest encoded proxy (id, codes, 4-byte host, port, three dictionary refs, numbers, labels). */
    private static final int MIN_PROXY_BYTES = 13;
    /** Bodies smaller than this are never deflated: it would not pay (one-proxy deltas). */
    private static final int MIN_DEFLATE_BYTES = 512;

    private final boolean deflate;

    private SnapshotCodec(boolean deflate) {
        this.deflate = deflate;
    }

    /** Frames without compression: the fastest to encode and decode. */
    public static SnapshotCodec plain() {
        return new SnapshotCodec(false);
    }

    /** Frames whose body is deflated (fastest level): smaller fulls, more CPU. */
    public static SnapshotCodec deflated() {
        return new SnapshotCodec(true);
    }

    public boolean deflates() {
        return deflate;
    }

    public byte[] encode(SnapshotFrame frame) {
        int estimate = switch (frame) {
            case SnapshotFrame.Full f -> 64 + f.proxies().size() * 48;
            case SnapshotFrame.Delta d ->
                64 + d.upserts().size() * 96 + d.removed().size() * 24;
            case SnapshotFrame.Reset r -> 64;
        };
        FrameWriter body = new FrameWriter(estimate);
        int kind;
        long from = 0;
        switch (frame) {
            case SnapshotFrame.Full f -> {
                kind = FULL;
                writeProxies(body, f.proxies());
            }
            case SnapshotFrame.Delta d -> {
                kind = DELTA;
                from = d.fromVersion();
                writeProxies(body, d.upserts());
                body.varint(d.removed().size());
                for (String id : d.removed()) {
                    body.string(id);
                }
            }
            case SnapshotFrame.Reset r -> {
                kind = RESET;
                from = r.fromVersion();
            }
        }
        SnapshotHeader h = frame.header();
        boolean compress = deflate && body.size() >= MIN_DEFLATE_BYTES;
        FrameWriter out = new FrameWriter((compress ? body.size() / 2 : body.size()) + 64);
        out.bytes(MAGIC, 0, MAGIC.length);
        out.byte1(FORMAT);
        out.byte1(kind);
        out.byte1(compress ? DEFLATED : 0);
        out.fixed64(h.epoch());
        out.varint(h.version());
        if (kind != FULL) {
            out.varint(from);
        }
        out.signed(h.publishedAtMillis());
        out.varint(h.validUntilMillis() - h.publishedAtMillis());
        out.varint(h.size());
        out.fixed64(h.digest());
        if (compress) {
            out.varint(body.size());
            byte[] packed = deflate(body.buffer(), body.size());
            out.varint(packed.length);
            out.bytes(packed, 0, packed.length);
        } else {
            out.varint(body.size());
            out.bytes(body.buffer(), 0, body.size());
        }
        CRC32C crc = new CRC32C();
        crc.update(out.buffer(), 0, out.size());
        out.fixed32((int) crc.getValue());
        return out.toByteArray();
    }

    /** Decodes a frame written by any codec (plain or deflated). */
    public static SnapshotFrame decode(byte[] frame) {
        if (frame == null || frame.length < MAGIC.length + 3 + 8 + 4) {
            throw new SnapshotFormatException("frame is too short: " + (frame == null ? 0 : frame.length) + " bytes");
        }
        int end = frame.length - 4;
        CRC32C crc = new CRC32C();
        crc.update(frame, 0, end);
        int stored = new FrameReader(frame, end, frame.length).fixed32();
        if ((int) crc.getValue() != stored) {
            throw new SnapshotFormatException("frame CRC mismatch (" + frame.length + " bytes)");
        }
        FrameReader in = new FrameReader(frame, 0, end);
        for (byte m : MAGIC) {
            if (in.byte1() != (m & 0xFF)) {
                throw new SnapshotFormatException("not a snapshot frame (bad magic)");
            }
        }
        int format = in.byte1();
        if (format != FORMAT) {
            throw new SnapshotFormatException(
                    "unknown snapshot frame format " + format + " (this build reads " + FORMAT + ")");
        }
        int kind = in.byte1();
        if (kind < FULL || kind > RESET) {
            throw new SnapshotFormatException("unknown snapshot frame kind " + kind);
        }
        int flags = in.byte1();
        if ((flags & ~DEFLATED) != 0) {
            throw new SnapshotFormatException("unknown snapshot frame flags " + flags);
        }
        long epoch = in.fixed64();
        long version = in.varint();
        long from = kind == FULL ? 0 : in.varint();
        long published = in.signed();
        long validFor = in.varint();
        int size = in.count("content size", Integer.MAX_VALUE);
        long digest = in.fixed64();
        SnapshotHeader header;
        try {
            header = new SnapshotHeader(epoch, version, published, Math.addExact(published, validFor), size, digest);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new SnapshotFormatException("bad frame header: " + e.getMessage(), e);
        }
        FrameReader body = body(in, frame, (flags & DEFLATED) != 0);
        try {
            SnapshotFrame result = switch (kind) {
                case FULL -> new SnapshotFrame.Full(header, readProxies(body));
                case DELTA -> {
                    List<Proxy> upserts = readProxies(body);
                    int removed = body.count("removed count", body.remaining());
                    List<String> ids = new ArrayList<>(removed);
                    for (int i = 0; i < removed; i++) {
                        ids.add(body.string());
                    }
                    yield new SnapshotFrame.Delta(header, from, upserts, ids);
                }
                default -> new SnapshotFrame.Reset(header, from);
            };
            if (body.remaining() != 0) {
                throw new SnapshotFormatException(body.remaining() + " unread bytes after the frame body");
            }
            return result;
        } catch (SnapshotFormatException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new SnapshotFormatException("inconsistent frame: " + e.getMessage(), e);
        }
    }

    private static FrameReader body(FrameReader in, byte[] frame, boolean deflated) {
        if (!deflated) {
            int len = in.count("body length", in.remaining());
            int start = in.position();
            if (len != in.remaining()) {
                throw new SnapshotFormatException(
                        "body length " + len + " does not match the " + in.remaining() + " bytes left");
            }
            return new FrameReader(frame, start, start + len);
        }
        int plain = in.count("inflated body length", MAX_BODY_BYTES);
        int len = in.count("deflated body length", in.remaining());
        if (len != in.remaining()) {
            throw new SnapshotFormatException(
                    "body length " + len + " does not match the " + in.remaining() + " bytes left");
        }
        byte[] out = new byte[plain];
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(frame, in.position(), len);
            int n = 0;
            while (n < plain && !inflater.finished()) {
                int got = inflater.inflate(out, n, plain - n);
                if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
                n += got;
            }
            if (n != plain || !inflater.finished()) {
                throw new SnapshotFormatException("deflated body does not inflate to its declared " + plain + " bytes");
            }
        } catch (DataFormatException e) {
            throw new SnapshotFormatException("deflated body is corrupt: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
        return new FrameReader(out, 0, plain);
    }

    private static void writeProxies(FrameWriter w, List<Proxy> proxies) {
        w.varint(proxies.size());
        for (Proxy p : proxies) {
            ProxyRecord.write(w, p);
        }
    }

    private static List<Proxy> readProxies(FrameReader r) {
        int n = r.count("proxy count", r.remaining() / MIN_PROXY_BYTES);
        List<Proxy> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(ProxyRecord.read(r));
        }
        return out;
    }

    private static byte[] deflate(byte[] data, int len) {
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        try {
            deflater.setInput(data, 0, len);
            deflater.finish();
            FrameWriter out = new FrameWriter(len / 2 + 64);
            byte[] chunk = new byte[64 << 10];
            while (!deflater.finished()) {
                int n = deflater.deflate(chunk);
                out.bytes(chunk, 0, n);
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }
}
