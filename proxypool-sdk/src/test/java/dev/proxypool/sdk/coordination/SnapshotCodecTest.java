package dev.proxypool.sdk.coordination;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Anonymity;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SnapshotCodecTest {

    private static final List<SnapshotCodec> CODECS = List.of(SnapshotCodec.plain(), SnapshotCodec.deflated());

    static SnapshotHeader header(long version, List<Proxy> content) {
        return new SnapshotHeader(
                0x5EEDL, version, 1_764_504_000_123L, 1_764_504_600_123L, content.size(), ContentDigest.of(content));
    }

    /** Every field shape: IPv6, host names, a non-canonical dotted quad, sub-second expiry, unicode labels. */
    static List<Proxy> oddities() {
        return List.of(
                Proxy.builder(new ProxyKey(Protocol.HTTP, "203.0.113.7", 8000, CredentialRef.of("vendor-a")))
                        .build(),
                Proxy.builder(new ProxyKey(Protocol.SOCKS5, "2001:db8::1", 1080, CredentialRef.NONE))
                        .upstream("v6")
                        .provider("lab")
                        .expiresAt(Instant.parse("2026-12-01T00:00:00.123456789Z"))
                        .labels(Labels.of("city", "Zürich", "type", "résidentiel"))
                        .build(),
                Proxy.builder(new ProxyKey(Protocol.HTTPS, "proxy.example.net", 443, CredentialRef.NONE))
                        .exitNetwork(new ExitNetwork("2001:db8::77", 4_294_967_295L, "", "2001:db8::/48"))
                        .anonymity(Anonymity.ELITE)
                        .maxConcurrency(Integer.MAX_VALUE)
                        .weight(1000)
                        .build(),
                Proxy.builder(new ProxyKey(Protocol.SOCKS4, "010.1.1.1", 65535, CredentialRef.NONE))
                        .expiresAt(Instant.parse("1969-12-31T23:59:59Z"))
                        .build(),
                Proxy.builder(new ProxyKey(Protocol.HTTP, "0.0.0.0", 1, CredentialRef.NONE))
                        .exitNetwork(new ExitNetwork("255.255.255.255", 0, "Org", ""))
                        .build());
    }

    @Test
    void fullSnapshotRoundTripsEveryFieldShape() {
        List<Proxy> content = new ArrayList<>(oddities());
        content.addAll(Proxies.pool(500, 7));
        SnapshotFrame.Full full = new SnapshotFrame.Full(header(42, content), content);
        for (SnapshotCodec codec : CODECS) {
            SnapshotFrame back = SnapshotCodec.decode(codec.encode(full));
            assertEquals(full, back, "codec deflates=" + codec.deflates());
        }
    }

    @Test
    void deltaAndResetRoundTrip() {
        List<Proxy> upserts = oddities();
        SnapshotFrame.Delta delta = new SnapshotFrame.Delta(header(9, upserts), 8, upserts, List.of("p-1", "p-ü"));
        SnapshotFrame.Delta empty = new SnapshotFrame.Delta(header(10, List.of()), 9, List.of(), List.of());
        SnapshotFrame.Reset reset = new SnapshotFrame.Reset(header(11, upserts), 10);
        for (SnapshotCodec codec : CODECS) {
            assertEquals(delta, SnapshotCodec.decode(codec.encode(delta)));
            assertEquals(empty, SnapshotCodec.decode(codec.encode(empty)));
            assertEquals(reset, SnapshotCodec.decode(codec.encode(reset)));
        }
    }

    @Test
    void oneProxyChangeDeltaIsTiny() {
        List<Proxy> pool = Proxies.pool(100_000, 3);
        PoolContent before = PoolContent.of(pool);
        List<Proxy> after = new ArrayList<>(pool);
        after.set(
                50_000,
                pool.get(50_000).toBuilder()
                        .weight(pool.get(50_000).weight() + 1)
                        .build());
        PoolContent next = PoolContent.of(after);
        PoolContent.Change change = before.diff(next);
        assertEquals(1, change.upserts().size());
        assertEquals(List.of(), change.removed());
        SnapshotFrame.Delta delta = new SnapshotFrame.Delta(
                new SnapshotHeader(1, 2, 1_764_504_000_000L, 1_764_504_600_000L, next.size(), next.digest()),
                1,
                change.upserts(),
                change.removed());
        byte[] changed = SnapshotCodec.plain().encode(delta);
        PoolContent.Change removal = next.diff(PoolContent.of(after.subList(1, after.size())));
        byte[] removedOne = SnapshotCodec.plain()
                .encode(new SnapshotFrame.Delta(
                        new SnapshotHeader(1, 3, 1_764_504_000_000L, 1_764_504_600_000L, after.size() - 1, 0),
                        2,
                        removal.upserts(),
                        removal.removed()));
        byte[] plainFull = SnapshotCodec.plain().encode(new SnapshotFrame.Full(header(1, pool), pool));
        byte[] deflatedFull = SnapshotCodec.deflated().encode(new SnapshotFrame.Full(header(1, pool), pool));
        System.out.printf(
                Locale.ROOT,
                "one-proxy change delta: %d bytes; one-proxy removal: %d bytes; full 100k: plain %,d bytes"
                        + " (%.1f B/proxy), deflated %,d bytes (%.1f B/proxy)%n",
                changed.length,
                removedOne.length,
                plainFull.length,
                plainFull.length / 100_000.0,
                deflatedFull.length,
                deflatedFull.length / 100_000.0);
        assertTrue(
                changed.length < 256 && changed.length * 10_000L < plainFull.length,
                "one-proxy delta took " + changed.length + " bytes");
        assertTrue(removedOne.length < 64, "one-proxy removal took " + removedOne.length + " bytes");
        assertTrue(plainFull.length < 100_000 * 64, "full took " + plainFull.length + " bytes");
        assertTrue(deflatedFull.length < plainFull.length);
    }

    @Test
    void everySingleByteCorruptionIsRefused() {
        List<Proxy> content = Proxies.pool(20, 11);
        for (SnapshotCodec codec : CODECS) {
            byte[] good = codec.encode(new SnapshotFrame.Full(header(5, content), content));
            for (int i = 0; i < good.length; i++) {
                byte[] bad = good.clone();
                bad[i] ^= (byte) (1 << (i % 8));
                assertThrows(SnapshotFormatException.class, () -> SnapshotCodec.decode(bad), "flip at byte " + i);
            }
        }
    }

    @Test
    void truncatedAndForeignFramesAreRefused() {
        List<Proxy> content = Proxies.pool(10, 1);
        byte[] good = SnapshotCodec.plain().encode(new SnapshotFrame.Full(header(5, content), content));
        for (int len : new int[] {0, 3, 10, 20, good.length - 5, good.length - 1}) {
            byte[] cut = Arrays.copyOf(good, len);
            assertThrows(SnapshotFormatException.class, () -> SnapshotCodec.decode(cut), "cut at " + len);
        }
        assertThrows(SnapshotFormatException.class, () -> SnapshotCodec.decode(null));
        assertThrows(
                SnapshotFormatException.class, () -> SnapshotCodec.decode("not a frame at all, just text".getBytes()));
    }

    @Test
    void randomGarbageWithAValidCrcNeverEscapesAsAnotherException() {
        SplittableRandom rnd = new SplittableRandom(99);
        List<Proxy> content = Proxies.pool(5, 2);
        byte[] good = SnapshotCodec.plain().encode(new SnapshotFrame.Full(header(5, content), content));
        for (int round = 0; round < 3000; round++) {
            byte[] bad = good.clone();
            int flips = 1 + rnd.nextInt(4);
            for (int f = 0; f < flips; f++) {
                bad[4 + rnd.nextInt(bad.length - 8)] = (byte) rnd.nextInt(256);
            }
            SnapshotTestFrames.fixCrc(bad);
            try {
                SnapshotCodec.decode(bad);
            } catch (SnapshotFormatException expected) {
                // refused cleanly
            }
        }
    }

    @Test
    void headerAndFrameInvariantsNameTheField() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new SnapshotHeader(1, 0, 0, 0, 0, 0));
        assertTrue(e.getMessage().contains("version"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> new SnapshotFrame.Delta(header(5, List.of()), 3, List.of(), List.of()));
        assertTrue(e.getMessage().contains("must start at 4"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class, () -> new SnapshotFrame.Full(header(5, List.of()), Proxies.pool(1, 1)));
        assertTrue(e.getMessage().contains("header says 0"), e.getMessage());
    }

    @Test
    void decodedGarbageFrameKindIsReported() {
        List<Proxy> content = Proxies.pool(3, 4);
        byte[] frame = SnapshotCodec.plain().encode(new SnapshotFrame.Reset(header(5, content), 4));
        assertInstanceOf(SnapshotFrame.Reset.class, SnapshotCodec.decode(frame));
        frame[4] = 9;
        SnapshotTestFrames.fixCrc(frame);
        SnapshotFormatException e = assertThrows(SnapshotFormatException.class, () -> SnapshotCodec.decode(frame));
        assertTrue(e.getMessage().contains("kind 9"), e.getMessage());
    }
}
