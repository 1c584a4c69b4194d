package dev.proxypool.core.task;

import dev.proxypool.core.time.Ticker;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The background threads of one component: periodic tasks ({@link #every}) and long-running loops
 * ({@link #loop}), each on its own named virtual thread, stopped together by {@link #close()}.
 *
 * <ul>
 *   <li><b>Named:</b> every thread is called by the name its task was given, so a thread dump says
 *       whose it is.</li>
 *   <li><b>Failures are logged, not lost:</b> a periodic run that throws is logged at
 *       {@code WARNING} with the owner's and the task's name and the task runs again at its next
 *       period (while stopping: at {@code DEBUG}); a loop that throws is logged and ends; an
 *       {@link Error} is logged at {@code ERROR} and ends its task.</li>
 *   <li><b>Stop and join:</b> {@link #close()} (and {@link Task#cancel()} for one task) lets a
 *       periodic run in progress finish and starts no other, interrupts loops, and waits for every
 *       thread up to {@link #CLOSE_WAIT} in all (or the wait given to {@link #of(String, Duration)});
 *       a thread still running then is logged by name and interrupted. After {@code close()} no new
 *       task starts.</li>
 * </ul>
 *
 * <p>A loop ends when interrupted: a blocking call that throws {@link InterruptedException} ends
 * it (let it propagate, or restore the flag and return). Thread-safe.
 */
public final class BackgroundTasks implements AutoCloseable {

    /** How long {@link #close()} waits, in all, for the threads it interrupted, unless told otherwise. */
    public static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private static final Logger LOG = System.getLogger(BackgroundTasks.class.getName());
    private static final Ticker TICKER = Ticker.system();
    /** How long a thread interrupted after the close wait is waited for. */
    private static final Duration LAST_WAIT = Duration.ofMillis(500);

    /** A loop body: runs until it returns or is interrupted. */
    @FunctionalInterface
    public interface Loop {
        /**
         * Runs the loop.
         *
         * @throws InterruptedException when interrupted (a normal end of the loop)
         */
        void run() throws InterruptedException;
    }

    /** One started task. */
    public interface Task {
        /**
         * The task's (and its thread's) name.
         *
         * @return the name given when it was started
         */
        String name();

        /**
         * Whether the task's thread is still running.
         *
         * @return true until the task ended or was stopped
         */
        boolean running();

        /**
         * Runs a periodic task now, on its thread, instead of at the end of its current pause (then
         * its period starts again); wake-ups while it runs make one more run. No effect on a loop.
         */
        void runNow();

        /** Stops this task as {@link #close()} stops every task, and waits for its thread. */
        void cancel();
    }

    private final String owner;
    private final Duration closeWait;
    private final Logger log;
    private final List<Running> tasks = new CopyOnWriteArrayList<>();
    private boolean closed; // guarded by this

    BackgroundTasks(String owner, Duration closeWait, Logger log) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.log = Objects.requireNonNull(log, "log");
        if (closeWait.isNegative()) {
            throw new IllegalArgumentException(owner + ": the close wait must be >= 0, got " + closeWait);
        }
        this.closeWait = closeWait;
    }

    /**
     * The background tasks of one component.
     *
     * @param owner the component, named in log lines
     * @return a service with no task started yet
     */
    public static BackgroundTasks of(String owner) {
        return new BackgroundTasks(owner, CLOSE_WAIT, LOG);
    }

    /**
     * The background tasks of one component whose runs may take long to stop (a store call in
     * progress).
     *
     * @param owner     the component, named in log lines
     * @param closeWait how long {@link #close()} waits, in all, for the threads it interrupted
     * @return a service with no task started yet
     */
    public static BackgroundTasks of(String owner, Duration closeWait) {
        return new BackgroundTasks(owner, closeWait, LOG);
    }

    /**
     * Runs {@code body} every {@code period} (fixed delay: the next run starts {@code period} after
     * the previous one ended), the first time one {@code period} from now.
     *
     * @param name   the task's and its thread's name
     * @param period the delay between runs; positive
     * @param body   the work; an exception it throws is logged and the task goes on
     * @return the started task
     * @throws IllegalStateException after {@link #close()}
     */
    public Task every(String name, Duration period, Runnable body) {
        return every(name, period, period, body);
    }

    /**
     * Runs {@code body} first after {@code initialDelay}, then every {@code period} (fixed delay).
     *
     * @param name         the task's and its thread's name
     * @param initialDelay the delay before the first run; zero or positive
     * @param period       the delay between the end of one run and the start of the next; positive
     * @param body         the work; an exception it throws is logged and the task goes on
     * @return the started task
     * @throws IllegalStateException after {@link #close()}
     */
    public Task every(String name, Duration initialDelay, Duration period, Runnable body) {
        Objects.requireNonNull(body, "body");
        if (initialDelay.isNegative() || !period.isPositive()) {
            throw new IllegalArgumentException(
                    name + ": the initial delay must be >= 0 and the period > 0, got " + initialDelay + ", " + period);
        }
        return start(name, false, r -> {
            if (r.pause(initialDelay)) {
                return;
            }
            do {
                try {
                    body.run();
                } catch (RuntimeException e) {
                    if (r.stopping) {
                        log.log(Level.DEBUG, owner + ": task " + name + " failed while stopping", e);
                    } else {
                        log.log(Level.WARNING, owner + ": task " + name + " failed, it runs again in " + period, e);
                    }
                }
            } while (!r.pause(period));
        });
    }

    /**
     * Runs {@code body} once on its own thread: a loop that paces itself and returns (or is
     * interrupted) to end. {@link #close()} interrupts it at once.
     *
     * @param name the task's and its thread's name
     * @param body the loop
     * @return the started task
     * @throws IllegalStateException after {@link #close()}
     */
    public Task loop(String name, Loop body) {
        Objects.requireNonNull(body, "body");
        return start(name, true, r -> body.run());
    }

    /** A task's body, given its own state (stop and wake-up). */
    private interface Body {
        void run(Running self) throws InterruptedException;
    }

    private Task start(String name, boolean interruptAtStop, Body body) {
        Objects.requireNonNull(name, "name");
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException(owner + " is closed: task " + name + " not started");
            }
            tasks.removeIf(t -> !t.thread.isAlive()); // ended tasks are not held
            Running r = new Running(name, interruptAtStop);
            r.thread = Thread.ofVirtual().name(name).unstarted(() -> run(name, () -> body.run(r)));
            tasks.add(r);
            r.thread.start();
            return r;
        }
    }

    /**
     * The threads of the tasks that are still running (tests, diagnostics).
     *
     * @return the live threads, in the order their tasks started
     */
    public List<Thread> liveThreads() {
        List<Thread> live = new ArrayList<>();
        for (Running r : tasks) {
            if (r.thread.isAlive()) {
                live.add(r.thread);
            }
        }
        return live;
    }

    /**
     * Stops every task: a periodic task finishes the run in progress and runs no more, a loop is
     * interrupted; then waits for all threads (up to the close wait in all) and interrupts any
     * still running then.
     */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        stop(List.copyOf(tasks));
    }

    private void run(String name, Loop body) {
        try {
            body.run();
        } catch (InterruptedException e) {
            // stopped: a normal end
        } catch (RuntimeException e) {
            log.log(Level.WARNING, owner + ": task " + name + " failed and ended", e);
        } catch (Error e) {
            log.log(Level.ERROR, owner + ": task " + name + " failed and ended", e);
        }
    }

    private void stop(List<Running> all) {
        for (Running r : all) {
            r.stopping = true;
            r.wake.release();
            if (r.interruptAtStop) {
                r.thread.interrupt();
            }
        }
        long deadline = TICKER.read() + closeWait.toNanos();
        boolean interrupted = false;
        for (Running r : all) {
            try {
                if (!r.thread.join(Duration.ofNanos(Math.max(1, deadline - TICKER.read())))) {
                    log.log(
                            Level.WARNING,
                            owner + ": task " + r.name + " did not stop within " + closeWait + ", interrupting it");
                    r.thread.interrupt();
                    r.thread.join(LAST_WAIT);
                }
            } catch (InterruptedException e) {
                interrupted = true;
                r.thread.interrupt();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private final class Running implements Task {
        private final String name;
        private final boolean interruptAtStop;
        private final Semaphore wake = new Semaphore(0);
        private volatile boolean stopping;
        private Thread thread; // set before start, under the service's lock

        Running(String name, boolean interruptAtStop) {
            this.name = name;
            this.interruptAtStop = interruptAtStop;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public boolean running() {
            return thread.isAlive();
        }

        @Override
        public void runNow() {
            wake.release();
        }

        /** Waits {@code delay} or until woken; true when the task is to stop. */
        boolean pause(Duration delay) throws InterruptedException {
            if (wake.tryAcquire(delay.toNanos(), TimeUnit.NANOSECONDS)) {
                wake.drainPermits(); // several wake-ups while running: one run
            }
            return stopping;
        }

        @Override
        public void cancel() {
            stop(List.of(this));
        }
    }
}
