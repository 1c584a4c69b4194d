package dev.proxypool.sdk.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Serves concurrent requests of one kind with fewer, larger calls: at most {@code maxInFlight}
 * calls run at once, and the requests that arrive meanwhile wait in a queue and go together, up to
 * {@code maxBatch} a call, into the next one. A caller alone is never delayed (its request goes at
 * once, a batch of one); under load the batches grow by themselves, because more requests queue
 * while a call is under way. Redis runs one script at a time: a few calls in flight keep it busy
 * (one running, one waiting, one being turned around by the client), and what more would add is
 * per-call cost (the script's setup, the round trip), which a batch pays once (docs/architecture.md,
 * "Coalescing").
 *
 * <p>No thread of its own: a caller that finds a free call slot runs the next batch itself (its
 * request, or the oldest ones when others came first) and, when its own request is not among them,
 * serves the queue until it is; a caller that finds none parks until its request is answered or it
 * is woken to take a slot. Every caller that gives back a slot wakes the oldest waiting caller, so
 * no request is left queued while a slot is free. A call's failure is every request's of that batch:
 * each caller rethrows it. A request waits in the queue at most {@code maxQueued} (the Redis stores
 * give it their connect timeout, what a caller waited for a pooled connection before): then it
 * leaves the queue and its caller gets the {@code tooLong} failure (a retryable one); once a call
 * has taken it, the call's own timeouts bound the wait. Waiting is not interruptible (like a Redis
 * reply): an interrupt is kept for the caller to see.
 *
 * @param <T> a request
 * @param <R> its answer
 */
final class Coalescer<T, R> {

    private final int maxInFlight;
    private final int maxBatch;
    private final long maxQueuedNanos;
    private final Supplier<RuntimeException> tooLong;
    private final Function<List<T>, List<R>> call;
    private final ConcurrentLinkedQueue<Waiter<T, R>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder calls = new LongAdder();
    private final LongAdder requests = new LongAdder();
    private final LongAdder tooLongWaits = new LongAdder();

    /**
     * @param maxInFlight most calls running at once, at least 1
     * @param maxBatch    most requests one call serves, at least 1
     * @param maxQueued   the longest a request waits in the queue before a call takes it (positive);
     *                    then it leaves the queue and its caller gets {@code tooLong}'s exception
     * @param tooLong     the failure of a request that waited {@code maxQueued} without a call
     * @param call        serves a batch: one answer per request, in their order
     */
    Coalescer(
            int maxInFlight,
            int maxBatch,
            Duration maxQueued,
            Supplier<RuntimeException> tooLong,
            Function<List<T>, List<R>> call) {
        if (maxInFlight < 1 || maxBatch < 1 || !maxQueued.isPositive()) {
            throw new IllegalArgumentException("a coalescer needs at least one call in flight, one request a call and a"
                    + " positive queue wait, got " + maxInFlight + ", " + maxBatch + " and " + maxQueued);
        }
        this.maxInFlight = maxInFlight;
        this.maxBatch = maxBatch;
        this.maxQueuedNanos = maxQueued.toNanos();
        this.tooLong = tooLong;
        this.call = call;
    }

    /**
     * The answer to {@code request}, served alone or with others that arrived meanwhile.
     *
     * @throws RuntimeException what the call serving it threw (an {@link Error} likewise)
     */
    R submit(T request) {
        Waiter<T, R> mine = new Waiter<>(request, Thread.currentThread());
        long deadline = System.nanoTime() + maxQueuedNanos;
        queue.add(mine);
        boolean interrupted = false;
        boolean queued = true; // until a call takes it: then the call's own timeouts bound the wait
        try {
            while (!mine.done) {
                if (!queue.isEmpty() && tryAcquire()) {
                    try {
                        runBatch();
                    } finally {
                        inFlight.decrementAndGet();
                    }
                    Waiter<T, R> oldest = queue.peek(); // after the slot is free: it may take it
                    if (oldest != null) {
                        LockSupport.unpark(oldest.thread);
                    }
                } else if (!queued) {
                    LockSupport.park(this);
                } else {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        if (queue.remove(mine)) { // no call took it, and none will now
                            tooLongWaits.increment();
                            throw tooLong.get();
                        }
                        queued = false; // a call took it meanwhile
                    } else {
                        LockSupport.parkNanos(this, left);
                    }
                }
                interrupted |= Thread.interrupted();
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return mine.answer();
    }

    /** Calls made since the coalescer was created. */
    long calls() {
        return calls.sum();
    }

    /** Requests answered (or failed) since the coalescer was created. */
    long requests() {
        return requests.sum();
    }

    /** Requests that left the queue after waiting the longest allowed, since the coalescer was created. */
    long tooLongWaits() {
        return tooLongWaits.sum();
    }

    /** Requests waiting for a call now (O(n): for tests). */
    int queued() {
        return queue.size();
    }

    private boolean tryAcquire() {
        for (int n = inFlight.get(); n < maxInFlight; n = inFlight.get()) {
            if (inFlight.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }

    /** Serves the oldest queued requests, up to maxBatch, with one call. */
    private void runBatch() {
        List<Waiter<T, R>> batch = new ArrayList<>(Math.min(maxBatch, 16));
        for (Waiter<T, R> w; batch.size() < maxBatch && (w = queue.poll()) != null; ) {
            batch.add(w);
        }
        if (batch.isEmpty()) {
            return;
        }
        calls.increment();
        requests.add(batch.size());
        List<T> asked = new ArrayList<>(batch.size());
        for (Waiter<T, R> w : batch) {
            asked.add(w.request);
        }
        List<R> answers;
        try {
            answers = call.apply(asked);
            if (answers.size() != batch.size()) {
                throw new IllegalStateException(
                        "a coalesced call answered " + answers.size() + " of " + batch.size() + " requests");
            }
        } catch (Throwable failure) { // every request of the batch fails with it; each caller rethrows it
            for (Waiter<T, R> w : batch) {
                w.complete(null, failure);
            }
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).complete(answers.get(i), null);
        }
    }

    /** A queued request, its caller, and once done its answer or failure. */
    private static final class Waiter<T, R> {
        final T request;
        final Thread thread;
        private R answer;
        private Throwable failure;
        volatile boolean done; // written after answer and failure: reading it true publishes them

        Waiter(T request, Thread thread) {
            this.request = request;
            this.thread = thread;
        }

        void complete(R answer, Throwable failure) {
            this.answer = answer;
            this.failure = failure;
            done = true;
            LockSupport.unpark(thread);
        }

        R answer() {
            if (failure instanceof RuntimeException e) {
                throw e;
            }
            if (failure instanceof Error e) {
                throw e;
            }
            if (failure != null) {
                throw new IllegalStateException("a coalesced call failed", failure);
            }
            return answer;
        }
    }
}
