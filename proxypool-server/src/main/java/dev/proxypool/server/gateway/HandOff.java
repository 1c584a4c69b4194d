package dev.proxypool.server.gateway;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Work an event loop hands to threads that may wait (password hashing, name lookups, the access log's
 * writes), without taking a lock on the loop's side: a fixed set of threads, all started up front (no
 * thread is ever created from a loop), fed from a lock-free queue, bounded by a count so that a flood
 * is refused ({@link RejectedExecutionException}) instead of queued without end. A {@code
 * ThreadPoolExecutor} over an {@code ArrayBlockingQueue} would park a loop on the queue's one lock,
 * which its consumers hold too.
 */
final class HandOff implements Executor {

    private static final System.Logger LOG = System.getLogger(HandOff.class.getName());

    private final ThreadPoolExecutor threads;
    private final AtomicInteger pending = new AtomicInteger();
    private final int limit;

    /**
     * @param name    the threads' name prefix
     * @param threads how many threads run the work
     * @param limit   tasks queued or running at most; more are refused
     */
    HandOff(String name, int threads, int limit) {
        this.limit = limit;
        this.threads = new ThreadPoolExecutor(
                threads,
                threads,
                0,
                TimeUnit.SECONDS,
                new LinkedTransferQueue<>(),
                Thread.ofPlatform().name(name, 0).daemon(true).factory());
        this.threads.prestartAllCoreThreads();
    }

    /**
     * Queues {@code task}.
     *
     * @throws RejectedExecutionException when {@code limit} tasks are queued or running, or after {@link #shutdown}
     */
    @Override
    public void execute(Runnable task) {
        if (pending.incrementAndGet() > limit) {
            pending.decrementAndGet();
            throw new RejectedExecutionException("the hand-off queue is full");
        }
        try {
            threads.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException | Error e) {
                    // a task's own defect: logged, and the thread lives on (no replacement started from a loop)
                    LOG.log(System.Logger.Level.WARNING, "a gateway hand-off task failed: {0}", e.toString());
                } finally {
                    pending.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException e) {
            pending.decrementAndGet();
            throw e;
        }
    }

    /** Runs what is queued, takes nothing more. */
    void shutdown() {
        threads.shutdown();
    }

    /** Drops what is queued and interrupts what runs. */
    void shutdownNow() {
        threads.shutdownNow();
    }
}
