package dev.proxypool.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/** Loopback ports that misbehave before any byte is exchanged. */
public final class TestPorts {

    private static final int PROBE_TIMEOUT_MS = 200;
    private static final int MAX_FILLERS = 64;
    private static final int MAX_RESERVED = 64;
    private static final List<Socket> RESERVED = new ArrayList<>();
    private static int nextReserved;

    private TestPorts() {}

    /**
     * A loopback port with no listener: a connect is refused. The port stays reserved for the
     * life of this JVM by a socket bound to it that never listens (the kernel answers a SYN to it
     * with a reset), so no other server can take it in between — a port merely found free once
     * did get taken by another test's server before a test dialled it. Up to
     * {@value #MAX_RESERVED} different ports are reserved; further calls hand them out again.
     */
    public static int closedPort() {
        synchronized (RESERVED) {
            if (RESERVED.size() >= MAX_RESERVED) {
                return RESERVED.get(nextReserved++ % MAX_RESERVED).getLocalPort();
            }
            Socket s = new Socket();
            try {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)); // bound, never listening
            } catch (IOException e) {
                FakeServer.closeQuietly(s);
                throw new UncheckedIOException("cannot reserve a loopback port", e);
            }
            RESERVED.add(s);
            return s.getLocalPort();
        }
    }

    /** A port whose connects time out: see {@link Blackhole}. */
    public static Blackhole blackhole() {
        return new Blackhole();
    }

    /**
     * A listener that never accepts, with its accept queue filled, so the kernel drops further SYNs
     * and a connect times out (Linux with {@code tcp_abort_on_overflow=0}, the default). This is
     * the only way to get a real connect timeout on loopback.
     */
    public static final class Blackhole implements AutoCloseable {
        private final ServerSocket listener;
        private final List<Socket> fillers = new ArrayList<>();

        private Blackhole() {
            try {
                listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                InetSocketAddress addr = new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort());
                while (true) {
                    if (fillers.size() >= MAX_FILLERS) {
                        close();
                        throw new IllegalStateException("the accept queue never filled: no blackhole on this system");
                    }
                    Socket s = new Socket();
                    try {
                        s.connect(addr, PROBE_TIMEOUT_MS);
                        fillers.add(s);
                    } catch (SocketTimeoutException full) {
                        s.close();
                        return;
                    }
                }
            } catch (IOException e) {
                close();
                throw new UncheckedIOException("cannot make a blackhole port", e);
            }
        }

        public int port() {
            return listener.getLocalPort();
        }

        public String host() {
            return listener.getInetAddress().getHostAddress();
        }

        @Override
        public void close() {
            for (Socket s : fillers) {
                FakeServer.closeQuietly(s);
            }
            try {
                if (listener != null) {
                    listener.close();
                }
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
