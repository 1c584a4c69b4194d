package dev.proxypool.cli.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP service on {@code 127.0.0.1} and a free port: one virtual thread accepts, one virtual
 * thread per connection runs {@link #handle(Socket)}. {@link #close()} stops accepting and closes
 * every connection still open, so the demo leaves no thread or socket behind.
 */
abstract class LoopbackService implements AutoCloseable {

    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    LoopbackService(String name) {
        try {
            listener = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("demo " + name + ": cannot listen on 127.0.0.1", e);
        }
        Thread.ofVirtual().name("demo-" + name + "-accept").start(this::acceptLoop);
    }

    /** The port it listens on. */
    public final int port() {
        return listener.getLocalPort();
    }

    /** Serves one accepted connection; the socket is closed when it returns or throws. */
    abstract void handle(Socket client) throws IOException;

    private void acceptLoop() {
        try {
            while (true) {
                Socket accepted = listener.accept();
                open.add(accepted);
                Thread.ofVirtual().start(() -> serve(accepted));
            }
        } catch (IOException e) {
            // the listener was closed: the service has stopped
        }
    }

    private void serve(Socket connection) {
        try (connection) {
            handle(connection);
        } catch (IOException e) {
            // the peer went away or sent garbage: this connection ends, the service goes on
        } finally {
            open.remove(connection);
        }
    }

    /** Stops accepting and closes the open connections. Idempotent. */
    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // stopping: nothing to report
        }
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException ignored) {
                // stopping
            }
        }
    }
}
