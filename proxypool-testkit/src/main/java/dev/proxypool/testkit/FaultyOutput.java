package dev.proxypool.testkit;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;

/**
 * The client-facing output of a fake server with {@link Faults} applied. Not thread-safe: one
 * writer per connection (the handler, or the relay's downstream thread).
 */
final class FaultyOutput extends OutputStream {

    private final Socket raw;
    private final Socket top;
    private final OutputStream out;
    private final Faults faults;
    private final FakeServer server;
    private long written;
    private boolean started;
    private InjectedFault cut;

    /**
     * @param raw the TCP socket (reset and FIN happen here, below any TLS layer)
     * @param top the socket the handler speaks on (the TLS socket in TLS mode, else {@code raw})
     */
    FaultyOutput(Socket raw, Socket top, OutputStream out, Faults faults, FakeServer server) {
        this.raw = raw;
        this.top = top;
        this.out = out;
        this.faults = faults;
        this.server = server;
    }

    long written() {
        return written;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (cut != null) {
            throw cut;
        }
        if (faults.passThrough()) {
            out.write(b, off, len);
            written += len;
            return;
        }
        if (!started && len > 0) {
            started = true;
            if (!faults.latency().isZero()) {
                server.delayBegins();
                try {
                    pause(faults.latency());
                } finally {
                    server.delayEnds();
                }
            }
        }
        while (len > 0) {
            int n = len;
            n = (int) Math.min(n, room(faults.resetAfterBytes()));
            n = (int) Math.min(n, room(faults.halfCloseAfterBytes()));
            if (n == 0) {
                throw cutNow();
            }
            boolean trickling = faults.trickleAfterBytes() >= 0 && written >= faults.trickleAfterBytes();
            if (trickling) {
                n = Math.min(n, faults.trickleChunk());
            } else if (faults.trickleAfterBytes() >= 0) {
                n = (int) Math.min(n, faults.trickleAfterBytes() - written);
            }
            if (faults.sliceWrites()) {
                n = 1;
            }
            out.write(b, off, n);
            out.flush();
            written += n;
            off += n;
            len -= n;
            if (trickling) {
                pause(faults.tricklePause());
            }
        }
    }

    @Override
    public void flush() throws IOException {
        if (cut == null) {
            out.flush();
        }
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    private long room(long limit) {
        return limit < 0 ? Long.MAX_VALUE : Math.max(0, limit - written);
    }

    private InjectedFault cutNow() throws IOException {
        if (faults.resetAfterBytes() >= 0 && written >= faults.resetAfterBytes()) {
            cut = new InjectedFault(InjectedFault.Kind.RESET);
            raw.setSoLinger(true, 0);
            raw.close();
        } else {
            cut = new InjectedFault(InjectedFault.Kind.HALF_CLOSED);
            out.flush();
            try {
                top.shutdownOutput(); // over TLS: close_notify, then FIN
            } catch (UnsupportedOperationException e) {
                raw.shutdownOutput();
            }
        }
        return cut;
    }

    private static void pause(Duration d) throws IOException {
        if (d.isZero()) {
            return;
        }
        try {
            Thread.sleep(d); // the injected fault itself, not a wait for a condition
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while injecting a delay");
        }
    }
}
