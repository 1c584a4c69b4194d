package dev.proxypool.server.gateway;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Recycles the per-connection I/O buffers ({@link GatewayConfig#bufferBytes()} each) so a new
 * client connection or tunnel does not allocate and zero them: a short-lived CONNECT tunnel used
 * to allocate 96 KiB (two connection buffers and two 32 KiB relay buffers), now it borrows two.
 *
 * <p>A fixed array of slots, taken and given with one atomic swap each from a random start (no
 * lock, no node allocation); when every slot is empty {@link #take()} allocates, when every slot
 * is full {@link #give} drops the buffer for the GC. So at most {@code slots} buffers are kept.
 * A buffer is given back only by the connection that took it, after every thread that used it has
 * ended; its old bytes are never read again (readers only read what they filled). Thread-safe.
 */
final class BufferPool {

    private static final int PROBES = 4;

    private final AtomicReferenceArray<byte[]> slots;
    private final int bufferBytes;

    BufferPool(int bufferBytes, int slots) {
        this.bufferBytes = bufferBytes;
        this.slots = new AtomicReferenceArray<>(Math.max(1, slots));
    }

    int bufferBytes() {
        return bufferBytes;
    }

    /** A buffer of {@link #bufferBytes()} bytes (old content: the taker must not read what it did not write). */
    byte[] take() {
        int n = slots.length();
        int start = ThreadLocalRandom.current().nextInt(n);
        for (int k = 0; k < Math.min(PROBES, n); k++) {
            int i = (start + k) % n;
            if (slots.getPlain(i) != null) {
                byte[] b = slots.getAndSet(i, null);
                if (b != null) {
                    return b;
                }
            }
        }
        return new byte[bufferBytes];
    }

    /** Hands a buffer back; one of another size (never ours) is ignored. */
    void give(byte[] b) {
        if (b == null || b.length != bufferBytes) {
            return;
        }
        int n = slots.length();
        int start = ThreadLocalRandom.current().nextInt(n);
        for (int k = 0; k < Math.min(PROBES, n); k++) {
            int i = (start + k) % n;
            if (slots.getPlain(i) == null && slots.compareAndSet(i, null, b)) {
                return;
            }
        }
    }
}
