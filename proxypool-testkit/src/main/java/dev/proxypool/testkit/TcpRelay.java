package dev.proxypool.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP relay in front of a server (Redis, PostgreSQL, ...) for fault injection: it can
 * delay every chunk it forwards (a slow server or network) and cut every connection at once (a
 * network failure in the middle of calls), then refuse new ones until resumed. One virtual thread
 * per direction.
 */
public final class TcpRelay implements AutoCloseable {

    private final ServerSocket server;
    private final int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile long delayMillis;
    private volatile boolean accepting = true;

    public TcpRelay(int targetPort) {
        this.targetPort = targetPort;
        try {
            this.server = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread.ofVirtual().start(this::acceptLoop);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Each forwarded chunk waits this long first (both directions). */
    public void delay(long millis) {
        this.delayMillis = millis;
    }

    /** Closes every relayed connection now, and refuses (accepts and closes) new ones. */
    public void cut() {
        accepting = false;
        for (Socket s : open) {
            closeQuietly(s);
        }
    }

    public void resume() {
        accepting = true;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (!accepting) {
                    client.close();
                    continue;
                }
                Socket upstream;
                try {
                    upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                } catch (IOException down) {
                    closeQuietly(client);
                    continue;
                }
                open.add(client);
                open.add(upstream);
                Thread.ofVirtual().start(() -> pump(client, upstream));
                Thread.ofVirtual().start(() -> pump(upstream, client));
            } catch (IOException e) {
                // server closed, or the target is down: the client sees its connection closed
            }
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buf = new byte[16 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            for (int n; (n = in.read(buf)) > 0; ) {
                long d = delayMillis;
                if (d > 0) {
                    Thread.sleep(d); // the injected latency, not a wait for a condition
                }
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // cut, or one side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        cut();
    }
}
