package dev.proxypool.server.gateway;

import dev.proxypool.testkit.Pace;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;

/** A slow-header client: writes a request head one byte at a time (tests of the head deadline). */
public final class Trickle {

    private Trickle() {}

    /**
     * Writes {@code head} one byte per {@code pace} until the peer answers (bytes readable on
     * {@code in}), the write fails (closed), the head is sent, or {@code max} passes.
     *
     * @return how many bytes were written
     */
    public static int bytes(InputStream in, OutputStream out, byte[] head, Duration pace, Duration max)
            throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        int sent = 0;
        while (sent < head.length && System.nanoTime() < deadline) {
            try {
                if (in.available() > 0) {
                    return sent;
                }
                out.write(head[sent]);
                out.flush();
            } catch (IOException e) {
                return sent; // the server closed: what it answered is still readable
            }
            sent++;
            Pace.sleep(pace); // the pace of the attack, not a wait for a condition
        }
        return sent;
    }

    static int bytesUntilClosed(RawClient c, byte[] head, Duration pace, Duration max) throws InterruptedException {
        return bytes(c.in, c.out, head, pace, max);
    }
}
