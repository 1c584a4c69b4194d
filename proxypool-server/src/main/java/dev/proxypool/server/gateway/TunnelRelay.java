package dev.proxypool.server.gateway;

import dev.proxypool.core.time.Ticker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Relays established CONNECT tunnels on a few selector threads instead of two blocking threads per
 * tunnel. A blocking relay parks a thread per read that finds no data (one {@code epoll_ctl} and a
 * poller wake-up each) and starts a second thread per tunnel; a selector keeps both sockets of a
 * tunnel registered for their whole life, reads whichever is ready and writes the bytes straight on
 * to the other side through one direct scratch buffer per selector (no per-tunnel buffer unless a
 * write is partial).
 *
 * <p>Semantics are those of the blocking relay ({@link Tunnel}): an end of stream on one side
 * half-closes the other; after the upstream's end of stream the client gets the tunnel's close grace
 * to finish its side; an error on either side closes both; a read from the upstream that fails while
 * nobody is closing marks the session {@link Session#upstreamBroke()}; idleness is the gateway's
 * {@link IdleWatchdog}, which ends a session through {@link Session#close()}. Back-pressure: the
 * remainder of a partial write is kept in a pooled buffer and its source is not read until it is
 * flushed. Every session ends exactly once, on its selector thread, which closes both channels and
 * then wakes the thread waiting in {@link Session#await()}, or, for a session started with an end
 * callback, runs that callback (no thread waits: the gateway connection's completion runs there).
 *
 * <p>One JVM-wide set of selector threads ({@link #shared()}: half the processors, at least one, at
 * most four), daemon platform threads, like the JDK's own I/O pollers. {@code
 * -Dproxypool.gateway.tunnelRelay=threads} turns it off (each tunnel then uses the blocking relay),
 * for A/B measurements.
 */
final class TunnelRelay {

    static final String MODE_PROPERTY = "proxypool.gateway.tunnelRelay";
    private static final int SCRATCH_BYTES = 32 * 1024;
    private static final int POOLED_PENDING_BUFFERS = 64;

    private static final class Holder {
        static final TunnelRelay SHARED = create();

        private static TunnelRelay create() {
            if ("threads".equalsIgnoreCase(System.getProperty(MODE_PROPERTY, "selector"))) {
                return null;
            }
            int n = Math.clamp(Runtime.getRuntime().availableProcessors() / 2, 1, 4);
            try {
                return new TunnelRelay(n);
            } catch (IOException e) {
                return null; // no selector on this platform: tunnels use the blocking relay
            }
        }
    }

    private final Loop[] loops;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicLong started = new AtomicLong();

    private TunnelRelay(int threads) throws IOException {
        loops = new Loop[threads];
        for (int i = 0; i < threads; i++) {
            loops[i] = new Loop(Selector.open());
            Thread t = new Thread(loops[i]::run, "gateway-tunnel-relay-" + i);
            t.setDaemon(true);
            t.start();
        }
    }

    /** The JVM's relay, or {@code null} when it is turned off or unavailable. */
    static TunnelRelay shared() {
        return Holder.SHARED;
    }

    /** Sessions started since the JVM started (tests, diagnostics). */
    long sessionsStarted() {
        return started.get();
    }

    /**
     * Starts relaying between two connected channels, which the session switches to non-blocking
     * mode; from here on only the session touches them until it has ended.
     *
     * @param graceNanos how long the client may still send after the upstream's end of stream
     */
    Session start(SocketChannel client, SocketChannel upstream, Ticker ticker, long graceNanos) {
        return start(client, upstream, ticker, graceNanos, null);
    }

    /**
     * Starts relaying like {@link #start(SocketChannel, SocketChannel, Ticker, long)}; with {@code onEnd}
     * not null, nobody waits in {@link Session#await()}: the selector thread hands the session to
     * {@code onEnd} once it has ended and both channels are closed. It must not block (it runs on the
     * thread that relays every tunnel of its loop); a runtime exception it throws is dropped.
     */
    Session start(
            SocketChannel client, SocketChannel upstream, Ticker ticker, long graceNanos, Consumer<Session> onEnd) {
        Loop loop = loops[Math.floorMod(next.getAndIncrement(), loops.length)];
        Session s = new Session(loop, client, upstream, ticker, graceNanos, Thread.currentThread(), onEnd);
        started.incrementAndGet();
        loop.submit(s);
        return s;
    }

    /** One direction of a tunnel. */
    private static final class Direction {
        final SocketChannel src;
        final SocketChannel dst;
        final boolean fromUpstream;
        ByteBuffer pending; // the unwritten rest of a partial write, or null
        boolean eof;
        long bytes;

        Direction(SocketChannel src, SocketChannel dst, boolean fromUpstream) {
            this.src = src;
            this.dst = dst;
            this.fromUpstream = fromUpstream;
        }
    }

    /** One relayed tunnel: its state lives on its selector thread; the waiting thread reads it after {@link #await()}. */
    static final class Session {
        private final Loop loop;
        private final Ticker ticker;
        private final long graceNanos;
        private final Thread waiter;
        private final Consumer<Session> onEnd;
        private final Direction up;
        private final Direction down;
        private SelectionKey clientKey;
        private SelectionKey upstreamKey;
        private long graceDeadline;
        private boolean registered;
        private boolean finished;
        private volatile boolean closeRequested;
        private volatile boolean upstreamBroke;
        private volatile boolean done;
        private volatile long lastActivity;

        private Session(
                Loop loop,
                SocketChannel client,
                SocketChannel upstream,
                Ticker ticker,
                long graceNanos,
                Thread waiter,
                Consumer<Session> onEnd) {
            this.loop = loop;
            this.onEnd = onEnd;
            this.ticker = ticker;
            this.graceNanos = graceNanos;
            this.waiter = waiter;
            this.up = new Direction(client, upstream, false);
            this.down = new Direction(upstream, client, true);
            this.lastActivity = ticker.read();
        }

        /** The {@link Ticker} time of the last transfer either way. */
        long lastActivity() {
            return lastActivity;
        }

        /** Ends the session (idle, shutdown): both channels are closed on the selector thread; any thread. */
        void close() {
            if (!done) {
                closeRequested = true;
                loop.submit(this);
            }
        }

        /** Blocks until the session has ended and both channels are closed; an interrupt closes it. */
        void await() {
            boolean interrupted = false;
            while (!done) {
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    interrupted = true;
                    close();
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        boolean done() {
            return done;
        }

        /** Bytes written to the client (after {@link #await()}). */
        long bytesDown() {
            return down.bytes;
        }

        /** Bytes written to the upstream (after {@link #await()}). */
        long bytesUp() {
            return up.bytes;
        }

        /** True when a read from the upstream failed while nobody was closing the tunnel. */
        boolean upstreamBroke() {
            return upstreamBroke;
        }
    }

    /** One selector thread and its sessions. */
    private static final class Loop {
        private final Selector selector;
        private final ConcurrentLinkedQueue<Session> inbox = new ConcurrentLinkedQueue<>();
        private final ByteBuffer scratch = ByteBuffer.allocateDirect(SCRATCH_BYTES);
        private final ArrayDeque<ByteBuffer> spare = new ArrayDeque<>();
        private final List<Session> ending = new ArrayList<>();
        /** Sessions in their close grace, in the order they entered it (all graces are alike in practice). */
        private final ArrayDeque<Session> inGrace = new ArrayDeque<>();

        Loop(Selector selector) {
            this.selector = selector;
        }

        void submit(Session s) {
            inbox.add(s);
            selector.wakeup();
        }

        void run() {
            while (true) {
                try {
                    if (!ending.isEmpty()) {
                        selector.selectNow(); // deregisters the cancelled keys, so the closes below are immediate
                        closeEnding();
                    } else {
                        selector.select(graceWaitMillis());
                    }
                    drainInbox();
                    Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                    while (it.hasNext()) {
                        SelectionKey k = it.next();
                        it.remove();
                        Session s = (Session) k.attachment();
                        try {
                            if (k.isValid()) {
                                handle(s, k);
                            }
                        } catch (RuntimeException e) {
                            finish(s); // e.g. a key cancelled by a close behind the relay's back
                        }
                    }
                    expireGrace();
                } catch (IOException | RuntimeException e) {
                    // a defect or a selector failure must not stop the relay of the other tunnels;
                    // the sessions it concerned end through close() (watchdog) at the latest
                    LockSupport.parkNanos(1_000_000L);
                }
            }
        }

        private void drainInbox() {
            Session s;
            while ((s = inbox.poll()) != null) {
                if (s.finished) {
                    continue;
                }
                if (s.closeRequested) {
                    finish(s);
                    continue;
                }
                if (s.registered) {
                    continue;
                }
                s.registered = true;
                try {
                    s.up.src.configureBlocking(false);
                    s.down.src.configureBlocking(false);
                    s.clientKey = s.up.src.register(selector, SelectionKey.OP_READ, s);
                    s.upstreamKey = s.down.src.register(selector, SelectionKey.OP_READ, s);
                } catch (ClosedChannelException e) {
                    finish(s); // closed under us (shutdown): nothing to relay
                } catch (IOException | RuntimeException e) {
                    finish(s);
                }
            }
        }

        private void handle(Session s, SelectionKey k) {
            if (s.finished) {
                return;
            }
            int ready = k.readyOps();
            boolean clientSide = k == s.clientKey;
            if ((ready & SelectionKey.OP_WRITE) != 0 && !flush(s, clientSide ? s.down : s.up)) {
                return;
            }
            if ((ready & SelectionKey.OP_READ) != 0 && !transfer(s, clientSide ? s.up : s.down)) {
                return;
            }
            interest(s);
        }

        /** One read from the direction's source, written on at once; false when the session ended. */
        private boolean transfer(Session s, Direction d) {
            if (d.eof || d.pending != null) {
                return true;
            }
            ByteBuffer b = scratch;
            b.clear();
            int n;
            try {
                n = d.src.read(b);
            } catch (IOException e) {
                if (d.fromUpstream && !s.closeRequested) {
                    s.upstreamBroke = true;
                }
                finish(s);
                return false;
            }
            if (n < 0) {
                return endOfStream(s, d);
            }
            if (n == 0) {
                return true;
            }
            b.flip();
            try {
                d.bytes += d.dst.write(b);
            } catch (IOException e) {
                finish(s);
                return false;
            }
            if (b.hasRemaining()) {
                ByteBuffer p = spare.pollFirst();
                if (p == null) {
                    p = ByteBuffer.allocateDirect(SCRATCH_BYTES);
                }
                p.clear();
                p.put(b).flip();
                d.pending = p;
            }
            s.lastActivity = s.ticker.read();
            return true;
        }

        /** Writes what a partial write left; false when the session ended. */
        private boolean flush(Session s, Direction d) {
            ByteBuffer p = d.pending;
            if (p == null) {
                return true;
            }
            try {
                d.bytes += d.dst.write(p);
            } catch (IOException e) {
                finish(s);
                return false;
            }
            if (!p.hasRemaining()) {
                d.pending = null;
                recycle(p);
            }
            s.lastActivity = s.ticker.read();
            return true;
        }

        private boolean endOfStream(Session s, Direction d) {
            d.eof = true;
            if (d.fromUpstream) {
                shutdownOutput(d.dst);
                if (s.up.eof) {
                    finish(s);
                    return false;
                }
                s.graceDeadline = s.ticker.read() + s.graceNanos;
                inGrace.add(s);
            } else {
                if (s.down.eof) {
                    finish(s); // both ended: the sockets close at once, no half-close needed
                    return false;
                }
                shutdownOutput(d.dst);
            }
            return true;
        }

        private static void shutdownOutput(SocketChannel c) {
            try {
                c.shutdownOutput();
            } catch (IOException ignored) {
                // closed already: the session ends through the other direction
            }
        }

        private static void interest(Session s) {
            set(
                    s.clientKey,
                    (readable(s.up) ? SelectionKey.OP_READ : 0) | (s.down.pending != null ? SelectionKey.OP_WRITE : 0));
            set(
                    s.upstreamKey,
                    (readable(s.down) ? SelectionKey.OP_READ : 0) | (s.up.pending != null ? SelectionKey.OP_WRITE : 0));
        }

        private static boolean readable(Direction d) {
            return !d.eof && d.pending == null;
        }

        private static void set(SelectionKey k, int ops) {
            if (k.interestOps() != ops) {
                k.interestOps(ops);
            }
        }

        private void finish(Session s) {
            if (s.finished) {
                return;
            }
            s.finished = true;
            if (s.clientKey != null) {
                s.clientKey.cancel();
            }
            if (s.upstreamKey != null) {
                s.upstreamKey.cancel();
            }
            ending.add(s);
        }

        private void closeEnding() {
            for (Session s : ending) {
                close(s.up.src);
                close(s.down.src);
                for (Direction d : new Direction[] {s.up, s.down}) {
                    if (d.pending != null) {
                        recycle(d.pending);
                        d.pending = null;
                    }
                }
                s.done = true;
                if (s.onEnd == null) {
                    LockSupport.unpark(s.waiter);
                } else {
                    try {
                        s.onEnd.accept(s);
                    } catch (RuntimeException e) {
                        // the tunnel's own completion failed: the relay of the others goes on
                    }
                }
            }
            ending.clear();
        }

        private static void close(SocketChannel c) {
            try {
                c.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }

        private void recycle(ByteBuffer b) {
            if (spare.size() < POOLED_PENDING_BUFFERS) {
                spare.addFirst(b);
            }
        }

        private long graceWaitMillis() {
            if (inGrace.isEmpty()) {
                return 0; // no deadline: wait for readiness or a submission
            }
            Session first = inGrace.getFirst();
            long wait = first.graceDeadline - first.ticker.read();
            return Math.max(1, wait / 1_000_000L + 1);
        }

        private void expireGrace() {
            if (inGrace.isEmpty()) {
                return;
            }
            // from the oldest: a session that ended meanwhile just leaves; the first one still in its
            // grace (deadlines grow in this order when graces are alike) stops the scan
            Session s;
            while ((s = inGrace.peekFirst()) != null) {
                if (s.finished) {
                    inGrace.pollFirst();
                } else if (s.ticker.read() - s.graceDeadline >= 0) {
                    inGrace.pollFirst();
                    finish(s);
                } else {
                    return;
                }
            }
        }
    }
}
