package dev.proxypool.testkit;

import java.time.Duration;

/**
 * Faults a fake server injects on a connection, combinable. They act on the bytes the server sends
 * to its client (the response, the handshake reply, the tunnel's downstream direction); byte
 * offsets count every byte sent on the connection, handshake replies included.
 *
 * <ul>
 *   <li>{@link #latency(Duration)}: wait before the first byte is sent (after any TLS handshake).</li>
 *   <li>{@link #hang()}: accept, read and discard everything, never answer (nor complete TLS).</li>
 *   <li>{@link #resetAfter(long)}: send {@code n} bytes, then reset the connection (RST via
 *       {@code SO_LINGER 0}) instead of sending byte {@code n+1}.</li>
 *   <li>{@link #halfCloseAfter(long)}: send {@code n} bytes, then shut the output down (FIN; over
 *       TLS a close_notify) while still reading until the client closes.</li>
 *   <li>{@link #trickle(int, Duration)}: a slow body: send {@code chunk} bytes, pause, repeat;
 *       {@link #trickleAfter(long, int, Duration)} starts trickling at an offset.</li>
 *   <li>{@link #slicedWrites()}: every byte in its own write and TCP segment.</li>
 * </ul>
 * Refusing connections needs no server: see {@link TestPorts#closedPort()}; a connect that times
 * out: {@link TestPorts#blackhole()}.
 *
 * @param latency            delay before the first byte; zero for none
 * @param hanging            never answer
 * @param resetAfterBytes    reset instead of sending more than this many bytes; -1 for never
 * @param halfCloseAfterBytes half-close instead of sending more than this many bytes; -1 for never
 * @param trickleAfterBytes  where trickling starts; -1 for no trickle
 * @param trickleChunk       bytes per trickled write
 * @param tricklePause       pause after each trickled write
 * @param sliceWrites        one byte per write
 */
public record Faults(
        Duration latency,
        boolean hanging,
        long resetAfterBytes,
        long halfCloseAfterBytes,
        long trickleAfterBytes,
        int trickleChunk,
        Duration tricklePause,
        boolean sliceWrites) {

    /** No fault: a well-behaved server. */
    public static final Faults NONE = new Faults(Duration.ZERO, false, -1, -1, -1, 0, Duration.ZERO, false);

    public Faults {
        if (latency == null || latency.isNegative()) {
            throw new IllegalArgumentException("latency must be zero or positive, got " + latency);
        }
        if (tricklePause == null || tricklePause.isNegative()) {
            throw new IllegalArgumentException("tricklePause must be zero or positive, got " + tricklePause);
        }
        if (resetAfterBytes < -1 || halfCloseAfterBytes < -1 || trickleAfterBytes < -1) {
            throw new IllegalArgumentException("byte offsets must be -1 (off) or at least 0, got reset="
                    + resetAfterBytes + " halfClose=" + halfCloseAfterBytes + " trickle=" + trickleAfterBytes);
        }
        if (trickleAfterBytes >= 0 && trickleChunk < 1) {
            throw new IllegalArgumentException("trickleChunk must be at least 1, got " + trickleChunk);
        }
    }

    public static Faults none() {
        return NONE;
    }

    public Faults latency(Duration delay) {
        return new Faults(
                delay,
                hanging,
                resetAfterBytes,
                halfCloseAfterBytes,
                trickleAfterBytes,
                trickleChunk,
                tricklePause,
                sliceWrites);
    }

    public Faults hang() {
        return new Faults(
                latency,
                true,
                resetAfterBytes,
                halfCloseAfterBytes,
                trickleAfterBytes,
                trickleChunk,
                tricklePause,
                sliceWrites);
    }

    public Faults resetAfter(long bytes) {
        requireOffset("resetAfter", bytes);
        return new Faults(
                latency,
                hanging,
                bytes,
                halfCloseAfterBytes,
                trickleAfterBytes,
                trickleChunk,
                tricklePause,
                sliceWrites);
    }

    public Faults halfCloseAfter(long bytes) {
        requireOffset("halfCloseAfter", bytes);
        return new Faults(
                latency, hanging, resetAfterBytes, bytes, trickleAfterBytes, trickleChunk, tricklePause, sliceWrites);
    }

    public Faults trickle(int chunk, Duration pause) {
        return trickleAfter(0, chunk, pause);
    }

    public Faults trickleAfter(long offset, int chunk, Duration pause) {
        requireOffset("trickleAfter", offset);
        return new Faults(latency, hanging, resetAfterBytes, halfCloseAfterBytes, offset, chunk, pause, sliceWrites);
    }

    public Faults slicedWrites() {
        return new Faults(
                latency,
                hanging,
                resetAfterBytes,
                halfCloseAfterBytes,
                trickleAfterBytes,
                trickleChunk,
                tricklePause,
                true);
    }

    /** True when no write needs to be intercepted. */
    boolean passThrough() {
        return latency.isZero()
                && resetAfterBytes < 0
                && halfCloseAfterBytes < 0
                && trickleAfterBytes < 0
                && !sliceWrites;
    }

    private static void requireOffset(String name, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException(name + " must be at least 0 bytes, got " + bytes);
        }
    }
}
