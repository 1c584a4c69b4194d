package dev.proxypool.server.listener;

import dev.proxypool.core.task.BackgroundTasks;
import io.helidon.webserver.WebServer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * Keeps the REST listener alive. Helidon's accept loop ends for good on any accept error, including
 * {@code Too many open files} ("this server socket is terminating now"), while the process stays up.
 * This watchdog (background task {@code api-listener-watchdog-<port>}, {@link BackgroundTasks})
 * connects to the listener's port every interval; when the connection is refused
 * (nothing listens there any more) it stops the dead server and starts a new one on the same port.
 * A check that cannot even open a socket (descriptors still exhausted) proves nothing and is
 * retried at the next interval, so the listener comes back once descriptors are free again.
 */
public final class ApiListenerWatchdog {

    private static final System.Logger LOG = System.getLogger(ApiListenerWatchdog.class.getName());
    private static final int CHECK_CONNECT_TIMEOUT_MILLIS = 1000;

    private final IntFunction<WebServer> factory;
    private final int port;
    private final InetAddress probeAddress;
    private final Duration interval;
    private final AtomicLong restarts = new AtomicLong();
    private final BackgroundTasks tasks = BackgroundTasks.of("REST listener watchdog");
    private volatile WebServer current;
    private volatile boolean running = true;

    private ApiListenerWatchdog(IntFunction<WebServer> factory, WebServer first, InetAddress bind, Duration interval) {
        this.factory = factory;
        this.current = first;
        this.port = first.port();
        this.probeAddress = bind.isAnyLocalAddress() ? InetAddress.getLoopbackAddress() : bind;
        this.interval = interval;
    }

    /**
     * Starts the server through {@code factory} (port 0: a free one) and watches it.
     *
     * @throws IllegalStateException when the listener could not bind (Helidon logs a failed bind and
     *                               returns a stopped server instead of throwing)
     */
    public static ApiListenerWatchdog start(
            IntFunction<WebServer> factory, int port, InetAddress bind, Duration interval) {
        WebServer first = factory.apply(port);
        if (!first.isRunning() || first.port() < 0) {
            first.stop();
            throw new IllegalStateException("the API listener could not start on " + bind.getHostAddress() + ":" + port
                    + " (address already in use?)");
        }
        ApiListenerWatchdog w = new ApiListenerWatchdog(factory, first, bind, interval);
        w.tasks.every("api-listener-watchdog-" + w.port, w.interval, w::check);
        return w;
    }

    public int port() {
        return port;
    }

    public long restarts() {
        return restarts.get();
    }

    public void stop() {
        running = false;
        tasks.close(); // a check in progress ends first (its connect times out within a second)
        synchronized (this) {
            current.stop();
        }
    }

    private void check() {
        if (running && listening() == Boolean.FALSE) {
            restart();
        }
    }

    /** True: accepted; false: refused (nobody listens); null: unknown (no descriptor, timeout, ...). */
    private Boolean listening() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(probeAddress, port), CHECK_CONNECT_TIMEOUT_MILLIS);
            return Boolean.TRUE;
        } catch (ConnectException e) {
            return Boolean.FALSE;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private synchronized void restart() {
        if (!running) {
            return;
        }
        LOG.log(
                System.Logger.Level.WARNING,
                "the REST listener on port {0} stopped accepting (its accept loop ended,"
                        + " e.g. descriptors exhausted); starting it again",
                Integer.toString(port));
        try {
            current.stop();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "stopping the dead REST listener failed", e);
        }
        try {
            current = factory.apply(port);
            restarts.incrementAndGet();
            LOG.log(
                    System.Logger.Level.INFO,
                    "the REST listener on port {0} is accepting again",
                    Integer.toString(port));
        } catch (RuntimeException e) {
            // still no descriptors, or the port is not free yet: the next check tries again
            LOG.log(
                    System.Logger.Level.WARNING,
                    "restarting the REST listener on port {0} failed ({1}); retrying",
                    Integer.toString(port),
                    e.getMessage());
        }
    }
}
