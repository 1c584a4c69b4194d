package dev.proxypool.benchmarks.pipeline;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Heap use during one run: the peak of the heap in use (sampled every 10 ms, and the heap before
 * each GC) and the peak of the heap still live after each GC (what the run really holds), both
 * from a baseline taken after a {@code System.gc()}. Flat memory shows as a post-GC peak that does
 * not grow with the number of candidates.
 */
final class HeapWatch implements AutoCloseable {

    record Peaks(long baselineBytes, long peakUsedBytes, long peakLiveAfterGcBytes, int gcs) {}

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final AtomicLong peakUsed = new AtomicLong();
    private final AtomicLong peakLive = new AtomicLong();
    private final AtomicLong gcs = new AtomicLong();
    private final List<Runnable> unsubscribe = new ArrayList<>();
    private final long baseline;
    private volatile boolean running = true;
    private final Thread sampler;

    HeapWatch() {
        System.gc();
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        baseline = memory.getHeapMemoryUsage().getUsed();
        NotificationListener onGc = (n, handback) -> {
            if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                return;
            }
            var info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData())
                    .getGcInfo();
            peakUsed.accumulateAndGet(heapOf(info.getMemoryUsageBeforeGc()), Math::max);
            peakLive.accumulateAndGet(heapOf(info.getMemoryUsageAfterGc()), Math::max);
            gcs.incrementAndGet();
        };
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(onGc, null, null);
                unsubscribe.add(() -> {
                    try {
                        emitter.removeNotificationListener(onGc);
                    } catch (ListenerNotFoundException ignored) {
                        // already gone
                    }
                });
            }
        }
        sampler = Thread.ofPlatform().daemon().name("heap-sampler").start(() -> {
            while (running) {
                peakUsed.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /** Heap pools only (names of the collectors' heap spaces); metaspace and code cache are not heap. */
    private static long heapOf(Map<String, MemoryUsage> pools) {
        long sum = 0;
        for (var e : pools.entrySet()) {
            String name = e.getKey();
            if (name.contains("Eden")
                    || name.contains("Survivor")
                    || name.contains("Old")
                    || name.contains("Tenured")
                    || name.contains("Humongous")
                    || name.contains("ZHeap")
                    || name.contains("Shenandoah")) {
                sum += e.getValue().getUsed();
            }
        }
        return sum;
    }

    Peaks peaks() {
        return new Peaks(baseline, peakUsed.get(), peakLive.get(), (int) gcs.get());
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
        unsubscribe.forEach(Runnable::run);
    }
}
