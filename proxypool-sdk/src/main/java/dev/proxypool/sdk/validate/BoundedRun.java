package dev.proxypool.sdk.validate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs {@code work} over a source of any size with a fixed number of worker virtual threads pulling
 * from a bounded queue, in constant memory: the calling thread pulls the source lazily and takes a
 * permit BEFORE each pull, and a permit comes back only after that item's result was delivered, so
 * at most {@code queueCapacity + workers} items are held at once (queued, in work, or being
 * delivered), whatever the source's size. Never one task per item up front.
 *
 * <p>Results are delivered one at a time under a lock, so the sink need not be thread-safe. The
 * first exception from the source, the work or the sink stops the run (no further pulls; queued
 * items are dropped) and is rethrown by {@link #run}; an interrupt of the calling thread interrupts
 * the workers and ends the run with {@link InterruptedException}.
 */
final class BoundedRun<T, R> {

    private static final Object END = new Object();

    private final int workers;
    private final ArrayBlockingQueue<Object> queue;
    private final Semaphore permits;
    private final Function<T, R> work;
    private final Consumer<R> sink;
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicInteger maxHeld = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Object deliveryLock = new Object();

    BoundedRun(int workers, int queueCapacity, Function<T, R> work, Consumer<R> sink) {
        this.workers = workers;
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.permits = new Semaphore(queueCapacity + workers);
        this.work = work;
        this.sink = sink;
    }

    /** Runs to the end of {@code source}; returns the most items held at once. */
    int run(Iterator<? extends T> source) throws InterruptedException {
        List<Thread> threads = new ArrayList<>(workers);
        for (int i = 0; i < workers; i++) {
            threads.add(Thread.ofVirtual().name("proxypool-validate-" + i).start(this::workLoop));
        }
        try {
            produce(source);
            for (int i = 0; i < workers; i++) {
                queue.put(END);
            }
            for (Thread t : threads) {
                t.join();
            }
        } catch (InterruptedException e) {
            failure.compareAndSet(null, e);
            for (Thread t : threads) {
                t.interrupt();
            }
            for (Thread t : threads) {
                t.join(Duration.ofSeconds(5));
            }
            throw e;
        }
        Throwable f = failure.get();
        if (f instanceof RuntimeException re) {
            throw re;
        }
        if (f instanceof Error err) {
            throw err;
        }
        return maxHeld.get();
    }

    private void produce(Iterator<? extends T> source) throws InterruptedException {
        while (failure.get() == null) {
            permits.acquire();
            T item;
            try {
                if (failure.get() != null || !source.hasNext()) {
                    permits.release();
                    return;
                }
                item = source.next();
            } catch (RuntimeException | Error e) {
                permits.release();
                failure.compareAndSet(null, e);
                return;
            }
            if (item == null) {
                permits.release();
                failure.compareAndSet(null, new IllegalArgumentException("the candidate source yielded null"));
                return;
            }
            maxHeld.accumulateAndGet(held.incrementAndGet(), Math::max);
            queue.put(item);
        }
    }

    @SuppressWarnings("unchecked")
    private void workLoop() {
        while (true) {
            Object o;
            try {
                o = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (o == END) {
                return;
            }
            try {
                if (failure.get() == null) {
                    R r = work.apply((T) o);
                    synchronized (deliveryLock) {
                        if (failure.get() == null) {
                            try {
                                sink.accept(r);
                            } catch (RuntimeException | Error e) {
                                // recorded before the lock is released: no other worker delivers after it
                                failure.compareAndSet(null, e);
                            }
                        }
                    }
                }
            } catch (RuntimeException | Error e) {
                failure.compareAndSet(null, e);
            } finally {
                held.decrementAndGet();
                permits.release();
            }
        }
    }
}
