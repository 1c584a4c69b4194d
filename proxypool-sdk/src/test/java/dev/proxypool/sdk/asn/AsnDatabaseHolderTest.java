package dev.proxypool.sdk.asn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.asn.AsnLoadError.Reason;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AsnDatabaseHolderTest {

    private static final Duration MAX_AGE = Duration.ofDays(7);

    @TempDir
    Path dir;

    ManualClock clock;
    Path csv;
    AsnDatabaseHolder holder;

    @BeforeEach
    void setUp() {
        clock = new ManualClock();
        csv = dir.resolve("asn-ipv4.csv");
        holder = new AsnDatabaseHolder(csv, new AsnDatabaseLoader(MAX_AGE, clock));
    }

    /** Writes {@code content} with a matching sidecar, modified at the clock's now. */
    private void publish(String content) throws IOException {
        write(content, AsnDatabaseLoader.sha256(content.getBytes(StandardCharsets.UTF_8)) + "  asn-ipv4.csv\n");
    }

    private void write(String content, String sidecar) throws IOException {
        Files.writeString(csv, content);
        Files.setLastModifiedTime(csv, FileTime.from(clock.instant()));
        if (sidecar != null) {
            Files.writeString(dir.resolve("asn-ipv4.csv.sha256"), sidecar);
        }
    }

    private void assertKeptPrevious(Reason reason, String detailFragment, AsnStatus status, String sha) {
        assertEquals(reason, status.lastError().orElseThrow().reason(), status::toString);
        assertTrue(
                status.lastError().get().detail().contains(detailFragment),
                status.lastError().get()::detail);
        assertFalse(status.publishable(), "no new validated snapshot while the database is " + reason);
        assertEquals(sha, status.sha256().orElseThrow(), "the previous database stays in service");
        assertEquals(64496, holder.lookup("192.0.2.1").asn());
    }

    @Test
    void aVerifiedLoadIsServedAndReported() throws IOException {
        assertFalse(holder.status().publishable(), "nothing loaded yet");
        assertSame(AsnDatabase.EMPTY, holder.database());

        String content = DocumentationDatabaseTest.generate();
        publish(content);
        AsnStatus status = holder.reload();

        assertTrue(status.publishable(), status::toString);
        assertEquals(4, status.entries());
        assertEquals(clock.instant(), status.loadedAt().orElseThrow());
        assertEquals(
                AsnDatabaseLoader.sha256(content.getBytes(StandardCharsets.UTF_8)),
                status.sha256().orElseThrow());
        assertEquals(64496, holder.lookup("192.0.2.1").asn());
    }

    @Test
    void everyBadReplacementKeepsThePreviousDatabaseWithTheReason() throws IOException {
        String good = DocumentationDatabaseTest.generate();
        publish(good);
        String sha = holder.reload().sha256().orElseThrow();

        write(good.replace("64496", "64511"), null); // content changed, sidecar not
        assertKeptPrevious(Reason.CHECKSUM_MISMATCH, "its .sha256 says " + sha, holder.reload(), sha);

        publish(good + "1.0.0.0,1.0.0.255,notanumber,X\n");
        assertKeptPrevious(Reason.CORRUPT, "line 6: 'notanumber' is not an AS number", holder.reload(), sha);

        publish("");
        assertKeptPrevious(Reason.CORRUPT, "holds no range", holder.reload(), sha);

        publish(good);
        Files.delete(dir.resolve("asn-ipv4.csv.sha256"));
        assertKeptPrevious(Reason.CHECKSUM_MISSING, "asn-ipv4.csv.sha256 does not exist", holder.reload(), sha);

        write(good, "not a checksum\n");
        assertKeptPrevious(Reason.CHECKSUM_MISSING, "not in sha256sum format", holder.reload(), sha);

        write(good, sha + "  other.csv\n");
        assertKeptPrevious(Reason.CHECKSUM_MISMATCH, "names other.csv", holder.reload(), sha);

        publish(good);
        Files.setLastModifiedTime(
                csv, FileTime.from(clock.instant().minus(MAX_AGE).minusSeconds(1)));
        assertKeptPrevious(Reason.STALE, "older than maxAge", holder.reload(), sha);

        Files.delete(csv);
        assertKeptPrevious(Reason.MISSING, "asn-ipv4.csv does not exist", holder.reload(), sha);

        publish(good.replace("DOC-NET-1", "DOC-NET-1B"));
        AsnStatus recovered = holder.reload();
        assertTrue(recovered.publishable(), "a good file recovers");
        assertEquals("DOC-NET-1B", holder.lookup("192.0.2.1").organization());
    }

    @Test
    void aFirstLoadThatFailsServesNothingAndRefusesToPublish() throws IOException {
        write("1.0.0.0,1.0.0.255,1,X\n", "0".repeat(64) + "  asn-ipv4.csv\n");
        AsnStatus status = holder.reload();
        assertEquals(Reason.CHECKSUM_MISMATCH, status.lastError().orElseThrow().reason());
        assertFalse(status.publishable());
        assertEquals(0, status.entries());
        assertSame(AsnDatabase.EMPTY, holder.database());
    }

    @Test
    void aDatabaseThatAgesPastMaxAgeStopsPublishingWithoutAReload() throws IOException {
        publish(DocumentationDatabaseTest.generate());
        assertTrue(holder.reload().publishable());
        clock.advance(MAX_AGE);
        assertTrue(holder.status().publishable(), "exactly maxAge old is still fresh");
        clock.advance(Duration.ofSeconds(1));
        AsnStatus aged = holder.status();
        assertFalse(aged.fresh());
        assertFalse(aged.publishable());
        assertEquals(64496, holder.lookup("192.0.2.1").asn(), "lookups keep working from the old table");
        assertEquals(Reason.STALE, holder.reload().lastError().orElseThrow().reason());
    }

    @Test
    void readersSeeOneCompleteDatabaseOrTheOtherWhileReloadsSwapAndFail() throws Exception {
        String a = "203.0.113.0,203.0.113.255,64498,A\n198.51.100.0,198.51.100.255,64498,A\n";
        String b = "203.0.113.0,203.0.113.255,64499,B\n198.51.100.0,198.51.100.255,64499,B\n";
        publish(a);
        holder.reload();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> broken = new AtomicReference<>();
        AtomicLong lookups = new AtomicLong();
        CountDownLatch started = new CountDownLatch(4);
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            readers.add(Thread.ofPlatform().start(() -> {
                started.countDown();
                while (!stop.get()) {
                    AsnDatabase db = holder.database(); // one snapshot for both lookups
                    long x = db.lookup("203.0.113.9").asn();
                    long y = db.lookup("198.51.100.9").asn();
                    if (x != y || (x != 64498 && x != 64499)) {
                        broken.compareAndSet(null, "saw " + x + "/" + y);
                    }
                    lookups.incrementAndGet();
                }
            }));
        }
        started.await();
        for (int i = 0; i < 60; i++) {
            switch (i % 3) {
                case 0 -> publish(b);
                case 1 -> write("garbage,line\n", null);
                default -> publish(a);
            }
            AsnStatus s = holder.reload();
            assertEquals(i % 3 != 1, s.publishable(), "round " + i + ": " + s);
        }
        stop.set(true);
        for (Thread t : readers) {
            t.join(10_000);
        }
        assertEquals(null, broken.get());
        assertTrue(lookups.get() > 0);
    }
}
