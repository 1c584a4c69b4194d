package dev.proxypool.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

/**
 * Fails a test when an event-loop thread blocks: the equivalent of BlockHound for a JDK whose
 * agent BlockHound does not support, built on JDK Flight Recorder. While the check runs, a
 * {@link RecordingStream} in this JVM records the JDK's blocking events with their stack traces;
 * {@link #assertNoBlocking()} stops it, reads every event recorded until then, and throws an
 * {@link AssertionError} listing those that happened on a thread whose name matches the pattern.
 *
 * <pre>{@code
 * try (Gateway gw = Gateway.start(config);
 *         LoopBlockingCheck loops = LoopBlockingCheck.threads("proxypool-loop-.*").start()) {
 *     // drive traffic through the gateway: requests, tunnels, failures, timeouts
 *     loops.assertNoBlocking(); // before the loops shut down
 * }
 * }</pre>
 *
 * <p>What counts as blocking, on a matching thread:
 * <ul>
 *   <li>{@code jdk.ThreadPark} (a lock, a {@code Future.get}, a queue's {@code take}, any
 *       {@code LockSupport.park}), {@code jdk.ThreadSleep}, {@code jdk.JavaMonitorWait}
 *       ({@code Object.wait}), {@code jdk.JavaMonitorEnter} (a contended {@code synchronized}),
 *       {@code jdk.FileRead}, {@code jdk.FileWrite}, {@code jdk.FileForce}, and a host name lookup
 *       ({@value #HOST_LOOKUP}, recorded by the server's resolver where it is installed): any duration
 *       ({@link Builder#threshold}, default 0: a loop has no business doing any of them);</li>
 *   <li>{@code jdk.SocketRead}, {@code jdk.SocketWrite}: from {@link Builder#socketThreshold}
 *       (default 10 ms). JDK 25 emits them for non-blocking {@code SocketChannel} reads and writes too,
 *       which Netty's NIO transport makes on its loops; its native epoll transport makes none, so
 *       with epoll a threshold of 0 catches any JDK socket I/O on a loop. With NIO, {@link
 *       Builder#allowNettyNioChannelIo()} leaves out the transport's own calls on its non-blocking
 *       channels (and only those), so a threshold of 0 catches any other socket I/O there too.</li>
 * </ul>
 * An event whose stack holds a frame starting with an {@linkplain Builder#ignoreFrame ignored
 * prefix} is left out, and so is one made by an {@linkplain Builder#ignoreCaller ignored caller};
 * by default ({@link #DEFAULT_IGNORED}) Netty's graceful shutdown, which sleeps
 * on the loop between checks for late tasks ({@code SingleThreadEventExecutor.confirmShutdown}), and
 * class loading (a class's first use reads its jar once); so is anything inside a static initializer
 * ({@code <clinit>}: once per class) unless {@link Builder#reportClassInitialization()}.
 *
 * <p>Limits: a call is seen only if an event is recorded for it. Native code without one is not: a
 * host name lookup through {@code InetAddress} ends in {@code getaddrinfo}, seen only where the
 * server's resolver provider records it (in proxypool-server and its tests; a hit of the JDK's
 * address cache does not reach it); nor is CPU work that holds a loop (hashing a password), which is a
 * profile's question. An event is recorded
 * when its call returns: a call still blocked when {@link #assertNoBlocking()} runs is not seen, so
 * stop the traffic first. Durations are wall time and grow on a loaded machine; the thresholds of 0
 * do not depend on them. Recording costs a stack trace per park, sleep and file access in the whole
 * JVM while the check runs: fine for a test, not meant for production.
 *
 * <p>The check proves it was recording: {@link #assertNoBlocking()} commits an event of its own on
 * the calling thread before it stops the stream and fails if that event did not come through, so a
 * JVM where Flight Recorder is off cannot pass silently. One check per test; not thread-safe.
 */
public final class LoopBlockingCheck implements AutoCloseable {

    /** Netty's graceful shutdown sleeps on the loop between checks for late tasks. */
    public static final String NETTY_CONFIRM_SHUTDOWN =
            "io.netty.util.concurrent.SingleThreadEventExecutor.confirmShutdown";

    /**
     * Ignored by default: Netty's graceful shutdown, and loading a class (the first use of a class
     * reads its jar once, under the loader's lock), which BlockHound allows as well.
     */
    public static final List<String> DEFAULT_IGNORED = List.of(
            NETTY_CONFIRM_SHUTDOWN,
            "java.lang.ClassLoader.loadClass",
            "jdk.internal.loader.BuiltinClassLoader.loadClass");

    /**
     * The methods of Netty's NIO transport that read and write its channels: a {@code NioSocketChannel}
     * is put in non-blocking mode when it is made ({@code AbstractNioChannel}'s constructor) and stays
     * so, so these calls return at once with what the kernel has. See {@link
     * Builder#allowNettyNioChannelIo()}.
     */
    public static final List<String> NETTY_NIO_CHANNEL_IO = List.of(
            "io.netty.channel.socket.nio.NioSocketChannel.doReadBytes",
            "io.netty.channel.socket.nio.NioSocketChannel.doWrite");

    /** Netty's buffers, between {@link #NETTY_NIO_CHANNEL_IO} and the JDK channel they read into or write from. */
    public static final String NETTY_BUFFERS = "io.netty.buffer.";

    /** Frames of the JDK itself, never the caller {@link Builder#ignoreCaller} names. */
    private static final List<String> JDK_FRAMES = List.of("java.", "javax.", "jdk.", "sun.");

    /**
     * The event of a host name lookup that reached the resolver, emitted by the server's resolver
     * provider ({@code NoReverseLookup}) where it is installed: the JDK records none of its own.
     */
    public static final String HOST_LOOKUP = "dev.proxypool.HostLookup";

    private static final List<String> ANY_DURATION = List.of(
            HOST_LOOKUP,
            "jdk.ThreadPark",
            "jdk.ThreadSleep",
            "jdk.JavaMonitorWait",
            "jdk.JavaMonitorEnter",
            "jdk.FileRead",
            "jdk.FileWrite",
            "jdk.FileForce");
    private static final List<String> SOCKET = List.of("jdk.SocketRead", "jdk.SocketWrite");
    private static final String MARKER = "dev.proxypool.testkit.LoopBlockingCheckMarker";
    private static final int FRAMES = 24;

    /**
     * A blocking call seen on a matching thread.
     *
     * @param event    the JFR event's name, e.g. {@code jdk.SocketRead}
     * @param thread   the thread's name
     * @param duration how long the call took
     * @param frames   the top of the stack, innermost first ({@code class.method:line})
     */
    public record Blocking(String event, String thread, Duration duration, List<String> frames) {
        @Override
        public String toString() {
            return event + " on '" + thread + "' for " + duration.toNanos() / 1_000 + " µs\n    at "
                    + String.join("\n    at ", frames);
        }
    }

    @Name(MARKER)
    @Label("LoopBlockingCheck marker")
    @Category("ProxyPool test kit")
    static final class Marker extends Event {
        @Label("Check id")
        long checkId;
    }

    /** A caller whose blocking calls are left out, reached through frames of the {@code through} prefixes. */
    private record Caller(String prefix, List<String> through) {
        /** True when the innermost frame outside the JDK and {@code through} starts with {@link #prefix}. */
        boolean made(List<String> innermostFirst) {
            for (String frame : innermostFirst) {
                if (startsWithAny(frame, JDK_FRAMES) || startsWithAny(frame, through)) {
                    continue;
                }
                return frame.startsWith(prefix);
            }
            return false;
        }
    }

    private static boolean startsWithAny(String frame, List<String> prefixes) {
        for (String p : prefixes) {
            if (frame.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    private final Pattern threads;
    private final List<String> ignored;
    private final List<Caller> callers;
    private final boolean classInitialization;
    private final RecordingStream stream;
    private final List<Blocking> seen = new ArrayList<>();
    private final AtomicBoolean markerSeen = new AtomicBoolean();
    private final long id = System.nanoTime();
    private boolean stopped;

    private LoopBlockingCheck(Builder b) {
        this.threads = b.threads;
        this.ignored = List.copyOf(b.ignored);
        this.callers = List.copyOf(b.callers);
        this.classInitialization = b.classInitialization;
        RecordingStream rs = new RecordingStream();
        try {
            for (String e : ANY_DURATION) {
                rs.enable(e).withThreshold(b.threshold).withStackTrace();
            }
            for (String e : SOCKET) {
                rs.enable(e).withThreshold(b.socketThreshold).withStackTrace();
            }
            rs.enable(Marker.class).withoutStackTrace();
            rs.onEvent(this::onEvent);
            rs.startAsync();
        } catch (RuntimeException e) {
            rs.close();
            throw e;
        }
        this.stream = rs;
    }

    /**
     * A check of the threads whose whole name matches {@code regex}, e.g. the gateway's event loops.
     *
     * @param regex a {@link Pattern} the thread's full name must match
     * @return a builder; {@link Builder#start()} starts recording
     */
    public static Builder threads(String regex) {
        return new Builder(Pattern.compile(regex));
    }

    /** Called on the stream's thread, one event at a time. */
    private void onEvent(RecordedEvent e) {
        if (e.getEventType().getName().equals(MARKER)) {
            if (e.getLong("checkId") == id) {
                markerSeen.set(true);
            }
            return;
        }
        RecordedThread t = e.getThread();
        String name = t == null ? null : t.getJavaName();
        if (name == null || !threads.matcher(name).matches()) {
            return;
        }
        List<String> frames = new ArrayList<>();
        List<String> methods = new ArrayList<>();
        RecordedStackTrace st = e.getStackTrace();
        if (st != null) {
            for (RecordedFrame f : st.getFrames()) {
                if (!f.isJavaFrame()) {
                    continue;
                }
                String method = f.getMethod().getName();
                if (!classInitialization && method.equals("<clinit>")) {
                    return; // a class's initializer runs once: not a loop's steady state
                }
                String frame = f.getMethod().getType().getName() + "." + method;
                for (String prefix : ignored) {
                    if (frame.startsWith(prefix)) {
                        return;
                    }
                }
                methods.add(frame);
                if (frames.size() < FRAMES) {
                    frames.add(frame + ":" + f.getLineNumber());
                }
            }
        }
        for (Caller c : callers) {
            if (c.made(methods)) {
                return;
            }
        }
        if (frames.isEmpty() && e.getEventType().getName().equals("jdk.JavaMonitorEnter")) {
            // no Java frame at all: the VM itself took a monitor, as a dying thread does to wake a
            // thread waiting in Thread.join; no code of a loop can be named or changed for it
            return;
        }
        synchronized (seen) {
            seen.add(new Blocking(e.getEventType().getName(), name, e.getDuration(), List.copyOf(frames)));
        }
    }

    /**
     * Stops recording and returns every blocking call seen on a matching thread since
     * {@link Builder#start()}. Idempotent: later calls return the same list.
     *
     * @return the calls, in the order they ended
     * @throws AssertionError when the check's own marker event did not come through (Flight Recorder
     *                        did not deliver events: the check would prove nothing)
     */
    public List<Blocking> stop() {
        if (!stopped) {
            stopped = true;
            Marker m = new Marker();
            m.checkId = id;
            m.commit();
            stream.stop(); // waits until every event recorded so far has been consumed
            stream.close();
            if (!markerSeen.get()) {
                throw new AssertionError(
                        "the loop blocking check saw none of its own events: Flight Recorder did not deliver");
            }
        }
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    /**
     * Stops recording and fails if a matching thread blocked.
     *
     * @throws AssertionError listing each blocking call with its thread, duration and stack
     */
    public void assertNoBlocking() {
        List<Blocking> calls = stop();
        if (!calls.isEmpty()) {
            StringBuilder m = new StringBuilder()
                    .append(calls.size())
                    .append(" blocking call(s) on threads matching '")
                    .append(threads.pattern())
                    .append("':");
            calls.stream().limit(20).forEach(c -> m.append("\n  ").append(c));
            throw new AssertionError(m.toString());
        }
    }

    /** Stops recording without a verdict (for a test that failed before its assertion). */
    @Override
    public void close() {
        if (!stopped) {
            stopped = true;
            stream.close();
        }
    }

    /** The options of a {@link LoopBlockingCheck}. */
    public static final class Builder {
        private final Pattern threads;
        private Duration threshold = Duration.ZERO;
        private Duration socketThreshold = Duration.ofMillis(10);
        private final List<String> ignored = new ArrayList<>(DEFAULT_IGNORED);
        private final List<Caller> callers = new ArrayList<>();
        private boolean classInitialization;

        private Builder(Pattern threads) {
            this.threads = threads;
        }

        /**
         * The shortest park, sleep, wait, contended monitor enter or file access reported.
         *
         * @param t default 0: every one
         * @return this builder
         */
        public Builder threshold(Duration t) {
            this.threshold = nonNegative(t);
            return this;
        }

        /**
         * The shortest socket read or write reported.
         *
         * @param t default 10 ms (Netty's NIO transport's own non-blocking reads are socket events);
         *          0 with the epoll transport
         * @return this builder
         */
        public Builder socketThreshold(Duration t) {
            this.socketThreshold = nonNegative(t);
            return this;
        }

        /**
         * Leaves out events whose stack holds a frame ({@code class.method}) starting with
         * {@code prefix}: a blocking call the test accepts.
         *
         * @param prefix e.g. {@code io.netty.util.concurrent.GlobalEventExecutor}
         * @return this builder
         */
        public Builder ignoreFrame(String prefix) {
            ignored.add(Objects.requireNonNull(prefix, "prefix"));
            return this;
        }

        /**
         * Leaves out events made by a caller whose frame ({@code class.method}) starts with {@code
         * prefix}: the innermost frame of the event's stack that is neither the JDK's ({@code java.},
         * {@code javax.}, {@code jdk.}, {@code sun.}) nor starts with one of {@code through}. Narrower
         * than {@link #ignoreFrame}: what the caller calls back (a listener it notifies, a handler it
         * runs) makes its own calls, and those are still reported.
         *
         * @param prefix  e.g. {@code io.netty.channel.socket.nio.NioSocketChannel.doReadBytes}
         * @param through prefixes of frames between the JDK's and the caller, e.g. {@value
         *                LoopBlockingCheck#NETTY_BUFFERS}
         * @return this builder
         */
        public Builder ignoreCaller(String prefix, String... through) {
            callers.add(new Caller(Objects.requireNonNull(prefix, "prefix"), List.of(through)));
            return this;
        }

        /**
         * Leaves out the socket reads and writes that Netty's NIO transport makes on its own channels
         * ({@link LoopBlockingCheck#NETTY_NIO_CHANNEL_IO}, reading into or writing from its buffers): non-blocking by
         * construction, and recorded by JDK 25 like any other. A socket call by anything else on the
         * loop, including a listener or handler that Netty runs from inside those methods, is still
         * reported; with a {@link #socketThreshold} of 0, at any duration.
         *
         * @return this builder
         */
        public Builder allowNettyNioChannelIo() {
            for (String caller : NETTY_NIO_CHANNEL_IO) {
                ignoreCaller(caller, NETTY_BUFFERS);
            }
            return this;
        }

        /**
         * Reports blocking inside a class's static initializer too (left out by default: it runs
         * once per class, e.g. the JDK reading its security properties on the first lookup).
         *
         * @return this builder
         */
        public Builder reportClassInitialization() {
            this.classInitialization = true;
            return this;
        }

        /**
         * Starts recording.
         *
         * @return the running check
         * @throws IllegalStateException when Flight Recorder is not available in this JVM
         */
        public LoopBlockingCheck start() {
            return new LoopBlockingCheck(this);
        }

        private static Duration nonNegative(Duration t) {
            if (Objects.requireNonNull(t, "threshold").isNegative()) {
                throw new IllegalArgumentException("a threshold must not be negative: " + t);
            }
            return t;
        }
    }
}
