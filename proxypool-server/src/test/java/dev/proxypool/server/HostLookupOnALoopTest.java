package dev.proxypool.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.testkit.LoopBlockingCheck;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A host name lookup is native code the JDK records no event for; the process's resolver
 * ({@link NoReverseLookup}) records one, so the test kit's loop check catches a lookup on an event
 * loop thread. An address literal never reaches the resolver and stays clean.
 */
class HostLookupOnALoopTest {

    /** "localhost" in a case the JDK's address cache (keyed by the name as given) has not seen. */
    private static String uncachedLocalhost() {
        String name;
        do {
            StringBuilder b = new StringBuilder();
            for (char c : "localhost".toCharArray()) {
                b.append(ThreadLocalRandom.current().nextBoolean() ? Character.toUpperCase(c) : c);
            }
            name = b.toString();
        } while (name.equals("localhost") || name.equals("localhost".toUpperCase(Locale.ROOT)));
        return name;
    }

    private static void runOn(String thread, Runnable body) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().name(thread).start(() -> {
            try {
                body.run();
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        });
        // wait for the body, not for the thread: a joiner holds the thread's monitor, and the dying
        // thread's wake-up of it would be recorded as a monitor wait on the "loop"
        done.get(10, TimeUnit.SECONDS);
        t.join(Duration.ofSeconds(10));
    }

    @Test
    void aLookupOnALoopThreadIsCaughtAndALiteralIsNot() throws Exception {
        String name = uncachedLocalhost();
        // the JDK's one-time set-up of the resolver (a ServiceLoader reading the services files) happens here
        assertTrue(InetAddress.getByName("localhost").isLoopbackAddress());
        try (LoopBlockingCheck check =
                LoopBlockingCheck.threads("test-loop-\\d+").start()) {
            runOn("test-loop-1", () -> {
                try {
                    assertTrue(InetAddress.getByName(name).isLoopbackAddress());
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            AssertionError e = assertThrows(AssertionError.class, check::assertNoBlocking);
            List<LoopBlockingCheck.Blocking> calls = check.stop().stream()
                    // the lookup event's own commit now and then waits on JFR's buffer lock (a
                    // jdk.JavaMonitorWait inside NoReverseLookup$Lookup.commit): the recording, not the lookup
                    .filter(c -> c.frames().isEmpty()
                            || !c.frames().getFirst().startsWith(NoReverseLookup.class.getName() + "$Lookup.commit"))
                    .toList();
            assertEquals(1, calls.size(), e.getMessage());
            assertEquals(LoopBlockingCheck.HOST_LOOKUP, calls.getFirst().event());
            assertEquals(NoReverseLookup.LOOKUP_EVENT, LoopBlockingCheck.HOST_LOOKUP);
            assertTrue(
                    calls.getFirst().frames().stream().anyMatch(f -> f.contains("HostLookupOnALoopTest")),
                    e.getMessage());
        }
        try (LoopBlockingCheck check =
                LoopBlockingCheck.threads("test-loop-\\d+").start()) {
            runOn("test-loop-2", () -> {
                try {
                    assertTrue(InetAddress.getByName("127.0.0.1").isLoopbackAddress());
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            check.assertNoBlocking();
        }
    }
}
