package dev.proxypool.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check on real threads: a thread named like an event loop that sleeps, blocks on a socket
 * read, waits for a future or writes a file is caught with its stack; one that only computes is
 * clean, and blocking on a thread of another name is not its business.
 */
class LoopBlockingCheckTest {

    private static final String LOOPS = "test-loop-\\d+";

    /** A platform thread running {@code body}; {@link #finish} joins it and rethrows its failure. */
    private record Loop(Thread thread, CompletableFuture<Void> done) {
        static Loop start(String name, ThrowingRunnable body) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            Thread t = Thread.ofPlatform().name(name).start(() -> {
                try {
                    body.run();
                    done.complete(null);
                } catch (Throwable e) {
                    done.completeExceptionally(e);
                }
            });
            return new Loop(t, done);
        }

        /** Waits until the thread's stack shows {@code frame} (it is inside that call). */
        void awaitInside(String frame) {
            Await.standard().until(thread.getName() + " inside " + frame, () -> {
                for (StackTraceElement e : thread.getStackTrace()) {
                    if ((e.getClassName() + "." + e.getMethodName()).contains(frame)) {
                        return true;
                    }
                }
                return false;
            });
        }

        void finish() throws Exception {
            // the body first, then the thread: a joiner holds the thread's monitor while the thread
            // ends, which the check would see as a monitor wait on the "loop"
            done.get(10, TimeUnit.SECONDS); // rethrows the body's failure
            assertTrue(thread.join(Duration.ofSeconds(10)), thread.getName() + " did not end");
        }
    }

    private static void runOn(String name, ThrowingRunnable body) throws Exception {
        Loop.start(name, body).finish();
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static Blocked caught(LoopBlockingCheck check) {
        AssertionError e = assertThrows(AssertionError.class, check::assertNoBlocking);
        return new Blocked(e.getMessage(), check.stop());
    }

    record Blocked(String message, List<LoopBlockingCheck.Blocking> calls) {}

    @Test
    void aSleepOnALoopThreadIsCaughtWithItsStack() throws Exception {
        try (LoopBlockingCheck check = LoopBlockingCheck.threads(LOOPS).start()) {
            runOn("test-loop-1", () -> Thread.sleep(30)); // the blocking call under test
            Blocked b = caught(check);
            assertEquals(1, b.calls().size(), b.message());
            LoopBlockingCheck.Blocking s = b.calls().getFirst();
            assertEquals("jdk.ThreadSleep", s.event());
            assertEquals("test-loop-1", s.thread());
            assertTrue(s.duration().toMillis() >= 25, s.toString());
            assertTrue(s.frames().stream().anyMatch(f -> f.contains("LoopBlockingCheckTest")), s.toString());
            assertTrue(b.message().contains("jdk.ThreadSleep on 'test-loop-1'"), b.message());
        }
    }

    @Test
    void aSocketReadThatWaitsForItsPeerIsCaught() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                LoopBlockingCheck check = LoopBlockingCheck.threads(LOOPS).start()) {
            Loop loop = Loop.start("test-loop-2", () -> {
                try (Socket s = new Socket(server.getInetAddress(), server.getLocalPort())) {
                    InputStream in = s.getInputStream();
                    assertEquals('x', in.read());
                }
            });
            try (Socket s = server.accept()) {
                loop.awaitInside("NioSocketImpl.read");
                Thread.sleep(60); // the peer answers late: the loop's read blocks meanwhile
                s.getOutputStream().write('x');
                loop.finish();
            }
            Blocked b = caught(check);
            LoopBlockingCheck.Blocking read = b.calls().stream()
                    .filter(c -> c.event().equals("jdk.SocketRead"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no socket read reported: " + b.message()));
            assertEquals("test-loop-2", read.thread());
            assertTrue(read.duration().toMillis() >= 50, read.toString());
        }
    }

    @Test
    void waitingForAFutureAndWritingAFileAreCaughtAtAnyDuration(@TempDir Path dir) throws Exception {
        try (LoopBlockingCheck check = LoopBlockingCheck.threads(LOOPS).start()) {
            CompletableFuture<String> answer = new CompletableFuture<>();
            Loop waiting = Loop.start("test-loop-3", () -> assertEquals("late", answer.get()));
            Await.standard().until("the loop waits", () -> waiting.thread().getState() == Thread.State.WAITING);
            answer.complete("late");
            waiting.finish();
            runOn("test-loop-4", () -> Files.writeString(dir.resolve("access.log"), "one line\n"));
            Blocked b = caught(check);
            assertTrue(
                    b.calls().stream()
                            .anyMatch(c -> c.event().equals("jdk.ThreadPark")
                                    && c.thread().equals("test-loop-3")),
                    b.message());
            assertTrue(
                    b.calls().stream()
                            .anyMatch(c -> c.event().equals("jdk.FileWrite")
                                    && c.thread().equals("test-loop-4")),
                    b.message());
        }
    }

    @Test
    void aLoopThatOnlyComputesIsCleanAndOtherThreadsMayBlock() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                LoopBlockingCheck check = LoopBlockingCheck.threads(LOOPS).start()) {
            // a worker (not a loop) blocks on a read and sleeps: not the check's business
            Thread peer = Thread.ofVirtual().start(() -> {
                try (Socket s = server.accept()) {
                    Thread.sleep(30); // a pause on a thread the check does not watch
                    s.getOutputStream().write('x');
                } catch (IOException | InterruptedException ignored) {
                    // the test ends
                }
            });
            runOn("worker-1", () -> {
                try (Socket s = new Socket(server.getInetAddress(), server.getLocalPort())) {
                    assertEquals('x', s.getInputStream().read());
                }
            });
            peer.join(Duration.ofSeconds(10));
            // the loop computes, uses a concurrent map and an uncontended lock: nothing blocks
            runOn("test-loop-5", () -> {
                ConcurrentHashMap<Integer, Integer> m = new ConcurrentHashMap<>();
                ReentrantLock lock = new ReentrantLock();
                long sum = 0;
                for (int i = 0; i < 100_000; i++) {
                    lock.lock();
                    try {
                        m.merge(i % 97, i, Integer::sum);
                        sum += m.get(i % 97);
                    } finally {
                        lock.unlock();
                    }
                }
                assertTrue(sum > 0);
            });
            check.assertNoBlocking();
            assertEquals(List.of(), check.stop());
        }
    }

    @Test
    void anIgnoredFrameLeavesItsBlockingOut() throws Exception {
        try (LoopBlockingCheck check = LoopBlockingCheck.threads(LOOPS)
                .ignoreFrame(LoopBlockingCheckTest.class.getName() + ".acceptedPause")
                .start()) {
            runOn("test-loop-6", LoopBlockingCheckTest::acceptedPause);
            check.assertNoBlocking();
        }
        try (LoopBlockingCheck check = LoopBlockingCheck.threads(LOOPS).start()) {
            runOn("test-loop-7", LoopBlockingCheckTest::acceptedPause);
            assertEquals(1, caught(check).calls().size(), "without the ignore it is caught");
        }
    }

    /** Reads one byte: the buffer layer between {@link #channelIo} and the JDK's channel. */
    private static int readOneByte(SocketChannel ch) throws IOException {
        return ch.read(ByteBuffer.allocate(1));
    }

    /** A transport's own read, then a callback it runs (a listener). */
    private static void channelIo(SocketChannel ch, ThrowingRunnable callback) throws Exception {
        assertEquals(1, readOneByte(ch));
        callback.run();
    }

    @Test
    void anIgnoredCallerLeavesOutItsOwnCallsButNotWhatItCallsBack() throws Exception {
        String caller = LoopBlockingCheckTest.class.getName() + ".channelIo";
        String through = LoopBlockingCheckTest.class.getName() + ".readOneByte";
        for (boolean ignore : new boolean[] {true, false}) {
            try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                    SocketChannel ch = SocketChannel.open(server.getLocalSocketAddress());
                    Socket peer = server.accept()) {
                peer.getOutputStream().write(new byte[] {'a', 'b'}); // both bytes wait in the channel: no read waits
                LoopBlockingCheck.Builder b = LoopBlockingCheck.threads(LOOPS).socketThreshold(Duration.ZERO);
                if (ignore) {
                    b.ignoreCaller(caller, through);
                }
                try (LoopBlockingCheck check = b.start()) {
                    runOn("test-loop-10", () -> channelIo(ch, () -> assertEquals(1, readOneByte(ch))));
                    Blocked blocked = caught(check);
                    List<LoopBlockingCheck.Blocking> reads = blocked.calls().stream()
                            .filter(c -> c.event().equals("jdk.SocketRead"))
                            .toList();
                    if (ignore) {
                        assertEquals(1, reads.size(), "only the callback's read: " + blocked.message());
                        assertTrue(
                                reads.getFirst().frames().stream().anyMatch(f -> f.contains("lambda$")),
                                blocked.message());
                    } else {
                        assertEquals(2, reads.size(), "both reads without the ignore: " + blocked.message());
                    }
                }
            }
        }
    }

    /** Its initializer blocks, once. */
    static final class SlowToInitialize {
        static final long STARTED = System.nanoTime();

        static {
            try {
                Thread.sleep(5); // the blocking initializer under test
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private SlowToInitialize() {}
    }

    /** Its initializer blocks, once. */
    static final class AlsoSlowToInitialize {
        static final long STARTED = System.nanoTime();

        static {
            try {
                Thread.sleep(5); // the blocking initializer under test
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private AlsoSlowToInitialize() {}
    }

    @Test
    void aStaticInitializerIsLeftOutUnlessAskedFor() throws Exception {
        try (LoopBlockingCheck check = LoopBlockingCheck.threads(LOOPS).start()) {
            runOn("test-loop-8", () -> assertTrue(SlowToInitialize.STARTED != 0));
            check.assertNoBlocking();
        }
        try (LoopBlockingCheck check =
                LoopBlockingCheck.threads(LOOPS).reportClassInitialization().start()) {
            runOn("test-loop-9", () -> assertTrue(AlsoSlowToInitialize.STARTED != 0));
            Blocked b = caught(check);
            assertTrue(b.calls().stream().anyMatch(c -> c.event().equals("jdk.ThreadSleep")), b.message());
        }
    }

    private static void acceptedPause() throws InterruptedException {
        Thread.sleep(5); // the blocking call the test accepts
    }

    @Test
    void thresholdsAreValidated() {
        assertThrows(
                IllegalArgumentException.class,
                () -> LoopBlockingCheck.threads(LOOPS).threshold(Duration.ofMillis(-1)));
        assertThrows(
                IllegalArgumentException.class,
                () -> LoopBlockingCheck.threads(LOOPS).socketThreshold(Duration.ofMillis(-1)));
    }
}
