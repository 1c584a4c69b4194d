package dev.proxypool.server.gateway;

import dev.proxypool.core.time.Ticker;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Relays raw bytes both ways between the client and an established upstream link. When both sides
 * are plain socket channels the shared {@link TunnelRelay} (selector threads) carries the bytes and
 * the calling thread waits for the end ({@link #run()}), or returns at once and the relay runs a
 * callback at the end ({@link #startDetached}); otherwise (TLS on either side, another listener, or
 * {@code -Dproxypool.gateway.tunnelRelay=threads}) the calling thread carries upstream→client and
 * one extra virtual thread client→upstream. An end of stream on
 * one side half-closes the other (TLS close_notify and HTTP/1.0 bodies need that); an error on
 * either side closes both. The tunnel ends when no byte has moved either way for the idle timeout:
 * the gateway's {@link IdleWatchdog} closes it, so the reads of both directions block without a
 * timeout (no timer armed and cancelled per read; each transfer only stamps {@code lastActivity}).
 * {@link #upstreamBroke()} tells whether it ended because reading from the upstream failed (a reset),
 * which the caller reports against the proxy; a timeout or a close of our own making does not count.
 */
final class Tunnel implements IdleWatchdog.Watched {

    private static final long CLOSE_GRACE_MILLIS = 5_000;

    private final ClientChannel client;
    private final WireReader clientReader;
    private final UpstreamLink link;
    private final int idleMillis;
    private final long idleNanos;
    private final Ticker ticker;
    private final IdleWatchdog watchdog;
    private volatile long lastActivity;
    private volatile boolean closing;
    private volatile boolean upstreamBroke;
    private long bytesDown; // written by the calling thread, then (detached) by the relay's before onEnd
    private long bytesUp; // written by the client→upstream thread only, read after it ends
    private final byte[] downBuffer;
    private Thread up;
    private volatile boolean downEnded;
    private volatile TunnelRelay.Session session;

    /**
     * @param downBuffer the buffer to relay upstream→client through (the client writer's, flushed);
     *                   client→upstream goes through {@code clientReader}'s own buffer once drained
     */
    Tunnel(
            ClientChannel client,
            WireReader clientReader,
            UpstreamLink link,
            int idleMillis,
            Ticker ticker,
            IdleWatchdog watchdog,
            byte[] downBuffer) {
        this.watchdog = watchdog;
        this.downBuffer = downBuffer;
        this.client = client;
        this.clientReader = clientReader;
        this.link = link;
        this.idleMillis = idleMillis;
        this.idleNanos = TimeUnit.MILLISECONDS.toNanos(idleMillis);
        this.ticker = ticker;
    }

    void run() {
        lastActivity = ticker.read();
        client.readTimeout(0); // idleness is the watchdog's: reads block without a timer
        watchdog.watch(this);
        try {
            relay();
        } finally {
            watchdog.unwatch(this);
        }
    }

    /** True when the shared selector relay will carry this tunnel: it runs and both sides are plain socket channels. */
    boolean onSelector() {
        return TunnelRelay.shared() != null && client.socketChannel() != null && link.channel() != null;
    }

    /**
     * Relays on the shared selector relay with no thread waiting for the end (only when {@link
     * #onSelector()}): returns at once, and {@code onEnd} runs exactly once when the tunnel has ended,
     * both sides closed and the counters ({@link #bytesDown()}, {@link #upstreamBroke()}, ...) final: on
     * the relay's thread, so it must not block, or on the calling thread when the tunnel ended before
     * it reached the relay (a failed write of the bytes that came with the handshake).
     */
    void startDetached(Runnable onEnd) {
        lastActivity = ticker.read();
        client.readTimeout(0);
        watchdog.watch(this);
        if (!drainClient() || !sendEarlyUpstreamBytes()) {
            watchdog.unwatch(this);
            onEnd.run();
            return;
        }
        publish(TunnelRelay.shared().start(client.socketChannel(), link.channel(), ticker, graceNanos(), s -> {
            collect(s);
            watchdog.unwatch(this);
            onEnd.run();
        }));
    }

    private void relay() {
        if (!drainClient()) {
            return;
        }
        if (onSelector()) {
            relayOnSelector();
            return;
        }
        up = Thread.ofVirtual().name("gateway-tunnel-up").start(() -> {
            if (pump(clientReader.stream(), link.output(), false, clientReader.buffer())) {
                if (!downEnded) { // else both directions are done and the caller closes the link at once
                    link.shutdownOutput();
                }
            } else {
                closeBoth();
            }
        });
        if (pump(link.input(), client.output(), true, downBuffer)) {
            client.shutdownOutput();
        } else {
            closeBoth();
        }
        downEnded = true;
        try {
            if (!up.join(Duration.ofMillis(Math.min(idleMillis, CLOSE_GRACE_MILLIS)))) {
                closeBoth();
                up.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeBoth();
        }
    }

    /** Sends upstream what the client sent right behind its CONNECT; false (both sides closed) on failure. */
    private boolean drainClient() {
        try {
            link.readTimeout(0);
            clientReader.drainTo(new CountingUp(link.output()));
            return true;
        } catch (IOException e) {
            closeBoth();
            return false;
        }
    }

    /**
     * Sends the client what the dialer read past the proxy's reply (a server-first protocol's greeting);
     * false (both sides closed) on failure.
     */
    private boolean sendEarlyUpstreamBytes() {
        try {
            InputStream early = link.input();
            int n;
            while (early.available() > 0 && (n = early.read(downBuffer)) > 0) {
                client.output().write(downBuffer, 0, n);
                bytesDown += n;
            }
            return true;
        } catch (IOException e) {
            closeBoth();
            return false;
        }
    }

    private void relayOnSelector() {
        if (!sendEarlyUpstreamBytes()) {
            return;
        }
        TunnelRelay.Session s =
                TunnelRelay.shared().start(client.socketChannel(), link.channel(), ticker, graceNanos());
        publish(s);
        s.await();
        collect(s);
    }

    private long graceNanos() {
        return TimeUnit.MILLISECONDS.toNanos(Math.min(idleMillis, CLOSE_GRACE_MILLIS));
    }

    private void publish(TunnelRelay.Session s) {
        session = s;
        if (closing) { // expired or aborted before the session was published
            s.close();
        }
    }

    private void collect(TunnelRelay.Session s) {
        bytesDown += s.bytesDown();
        bytesUp += s.bytesUp();
        upstreamBroke = s.upstreamBroke();
    }

    @Override
    public long lastActivity() {
        TunnelRelay.Session s = session;
        return s == null ? lastActivity : s.lastActivity();
    }

    @Override
    public long idleNanos() {
        return idleNanos;
    }

    /** Idle for the timeout: closes both sides, which ends both relay threads (not counted as a break). */
    @Override
    public void expire() {
        abort();
    }

    /** Ends the tunnel from another thread (idle, gateway shutdown): both sides are closed. */
    void abort() {
        closing = true;
        TunnelRelay.Session s = session;
        if (s != null) {
            s.close();
        } else {
            closeBoth();
        }
    }

    /** True when both relay threads have ended (after {@link #run()}): the buffers are free again. */
    boolean ended() {
        return up == null || !up.isAlive();
    }

    /** Bytes relayed to the client (read after {@link #run()}). */
    long bytesDown() {
        return bytesDown;
    }

    /** Bytes relayed upstream, those the client sent right behind its CONNECT included (read after {@link #run()}). */
    long bytesUp() {
        return bytesUp;
    }

    /** True when the tunnel ended because a read from the upstream failed (not a timeout, not our own close). */
    boolean upstreamBroke() {
        return upstreamBroke;
    }

    /** Copies until end of stream (true) or an error, or a close by the watchdog or the other side (false). */
    private boolean pump(InputStream src, OutputStream dst, boolean fromUpstream, byte[] buf) {
        try {
            while (true) {
                int n;
                try {
                    n = src.read(buf);
                } catch (IOException e) {
                    if (fromUpstream && !closing) {
                        upstreamBroke = true;
                    }
                    return false;
                }
                if (n < 0) {
                    return true;
                }
                dst.write(buf, 0, n);
                if (fromUpstream) {
                    bytesDown += n;
                } else {
                    bytesUp += n;
                }
                lastActivity = ticker.read();
            }
        } catch (IOException e) {
            return false;
        }
    }

    /** Counts what the client sent right behind its CONNECT into {@link #bytesUp}. */
    private final class CountingUp extends OutputStream {
        private final OutputStream out;

        CountingUp(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            bytesUp++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            bytesUp += len;
        }
    }

    private void closeBoth() {
        closing = true;
        link.close();
        client.close();
    }
}
