package dev.proxypool.core.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Named threads, periodic runs that survive a failure, and no thread alive after close(). */
class BackgroundTasksTest {

    private static final Duration SHORT = Duration.ofMillis(5);

    @Test
    void periodicTasksRunOnNamedThreadsAndNoThreadOutlivesClose() throws Exception {
        BackgroundTasks tasks = BackgroundTasks.of("test");
        CountDownLatch ran = new CountDownLatch(3);
        List<String> names = new ArrayList<>();
        tasks.every("tick-a", SHORT, () -> {
            synchronized (names) {
                names.add(Thread.currentThread().getName());
            }
            ran.countDown();
        });
        CountDownLatch looping = new CountDownLatch(1);
        tasks.loop("loop-b", () -> {
            looping.countDown();
            Thread.sleep(Duration.ofMinutes(10)); // the body under test blocks until interrupted
        });
        tasks.every("slow-c", Duration.ofMinutes(10), () -> {});
        assertTrue(ran.await(10, TimeUnit.SECONDS), "the periodic task ran three times");
        assertTrue(looping.await(10, TimeUnit.SECONDS), "the loop started");
        List<Thread> live = tasks.liveThreads();
        assertEquals(
                List.of("tick-a", "loop-b", "slow-c"),
                live.stream().map(Thread::getName).toList());
        synchronized (names) {
            assertTrue(names.stream().allMatch("tick-a"::equals), names.toString());
        }

        long start = System.nanoTime();
        tasks.close();
        assertTrue(
                System.nanoTime() - start < BackgroundTasks.CLOSE_WAIT.toNanos(), "close did not wait out its limit");
        for (Thread t : live) {
            assertFalse(t.isAlive(), t.getName() + " outlived close()");
        }
        assertEquals(List.of(), tasks.liveThreads());
        assertThrows(IllegalStateException.class, () -> tasks.every("late", SHORT, () -> {}));
    }

    @Test
    void aFailingRunIsLoggedWithItsNameAndTheTaskGoesOn() throws Exception {
        Recorder logged = new Recorder();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch thirdRun = new CountDownLatch(1);
        try (BackgroundTasks tasks = new BackgroundTasks("owner-x", BackgroundTasks.CLOSE_WAIT, logged)) {
            tasks.every("flaky", SHORT, () -> {
                if (runs.incrementAndGet() >= 3) {
                    thirdRun.countDown();
                }
                throw new IllegalStateException("boom " + runs.get());
            });
            assertTrue(thirdRun.await(10, TimeUnit.SECONDS), "the task ran again after failing");
        }
        List<Recorder.Entry> entries = logged.entries();
        assertTrue(entries.size() >= 2, entries.size() + " records");
        Recorder.Entry first = entries.getFirst();
        assertEquals(Level.WARNING, first.level());
        assertTrue(first.message().contains("owner-x") && first.message().contains("flaky"), first.message());
        assertEquals("boom 1", first.thrown().getMessage());
    }

    @Test
    void aLoopThatThrowsEnds() throws Exception {
        try (BackgroundTasks tasks = BackgroundTasks.of("owner-y")) {
            BackgroundTasks.Task t = tasks.loop("once", () -> {
                throw new IllegalArgumentException("bad");
            });
            for (Thread th : tasks.liveThreads()) {
                assertTrue(th.join(Duration.ofSeconds(10)), "the loop's thread ended");
            }
            assertFalse(t.running(), "the loop ended");
            assertEquals(List.of(), tasks.liveThreads());
        }
    }

    @Test
    void cancelStopsOneTaskAndLeavesTheOthers() throws Exception {
        try (BackgroundTasks tasks = BackgroundTasks.of("owner-z")) {
            BackgroundTasks.Task a = tasks.every("a", SHORT, () -> {});
            BackgroundTasks.Task b = tasks.every("b", SHORT, () -> {});
            a.cancel();
            assertFalse(a.running());
            assertTrue(b.running());
            assertEquals(
                    List.of("b"),
                    tasks.liveThreads().stream().map(Thread::getName).toList());
        }
    }

    @Test
    void closeLetsARunInProgressFinishAndRunsNoOther() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger finished = new AtomicInteger();
        CountDownLatch inside = new CountDownLatch(1);
        BackgroundTasks tasks = BackgroundTasks.of("owner-u");
        tasks.every("graceful", SHORT, () -> {
            runs.incrementAndGet();
            inside.countDown();
            try {
                Thread.sleep(300); // a run in progress when close() is called
                finished.incrementAndGet();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(inside.await(10, TimeUnit.SECONDS));
        tasks.close();
        assertEquals(runs.get(), finished.get(), "the run in progress was not interrupted");
        int after = runs.get();
        assertEquals(List.of(), tasks.liveThreads());
        assertEquals(after, runs.get(), "no run after close");
    }

    @Test
    void aRunThatOutlastsTheCloseWaitIsInterrupted() throws Exception {
        BackgroundTasks tasks = BackgroundTasks.of("owner-w", Duration.ofMillis(200));
        CountDownLatch inside = new CountDownLatch(1);
        AtomicInteger interrupted = new AtomicInteger();
        tasks.every("stuck", SHORT, () -> {
            inside.countDown();
            try {
                Thread.sleep(Duration.ofMinutes(10)); // the body under test blocks until interrupted
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(inside.await(10, TimeUnit.SECONDS));
        List<Thread> live = tasks.liveThreads();
        long start = System.nanoTime();
        tasks.close();
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "close waited 200 ms, then interrupted");
        assertEquals(1, interrupted.get());
        assertFalse(live.getFirst().isAlive(), "no thread outlives close()");
    }

    @Test
    void runNowRunsAPeriodicTaskBeforeItsPeriodEnds() throws Exception {
        try (BackgroundTasks tasks = BackgroundTasks.of("owner-t")) {
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch first = new CountDownLatch(1);
            CountDownLatch second = new CountDownLatch(2);
            BackgroundTasks.Task t = tasks.every("hourly", Duration.ofHours(1), () -> {
                runs.incrementAndGet();
                first.countDown();
                second.countDown();
            });
            t.runNow();
            assertTrue(first.await(10, TimeUnit.SECONDS), "a run on demand, long before the hour");
            t.runNow();
            assertTrue(second.await(10, TimeUnit.SECONDS), "another one, the period started again");
            assertTrue(t.running());
            assertEquals(2, runs.get());
        }
    }

    @Test
    void badPeriodsAreRefused() {
        try (BackgroundTasks tasks = BackgroundTasks.of("owner-v")) {
            assertThrows(IllegalArgumentException.class, () -> tasks.every("zero", Duration.ZERO, () -> {}));
            assertThrows(
                    IllegalArgumentException.class,
                    () -> tasks.every("neg", Duration.ofSeconds(-1), Duration.ofSeconds(1), () -> {}));
        }
    }

    /** A {@link System.Logger} that keeps what it is given. */
    private static final class Recorder implements System.Logger {
        record Entry(Level level, String message, Throwable thrown) {}

        private final List<Entry> entries = new ArrayList<>();

        synchronized List<Entry> entries() {
            return List.copyOf(entries);
        }

        @Override
        public String getName() {
            return "recorder";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public synchronized void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            entries.add(new Entry(level, msg, thrown));
        }

        @Override
        public synchronized void log(Level level, ResourceBundle bundle, String format, Object... params) {
            entries.add(new Entry(level, format, null));
        }
    }
}
