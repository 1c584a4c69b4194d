package dev.proxypool.cli.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/** Byte copying between two sockets: a tunnel both ways, or one direction until end of stream. */
final class Splice {

    private static final int BUFFER = 16 * 1024;

    private Splice() {}

    /**
     * Copies {@code a}'s input (starting with what {@code aIn} has buffered) to {@code b} and
     * {@code b}'s input to {@code a} until both directions end; an end of stream on one side is
     * passed on as a half-close of the other. A failed direction (a reset) closes both sockets, so
     * the other direction ends too. Returns when both directions are done.
     */
    static void both(Socket a, InputStream aIn, Socket b) throws IOException {
        InputStream bIn = b.getInputStream();
        Thread up = Thread.ofVirtual().start(() -> oneWay(aIn, b, a));
        oneWay(bIn, a, b);
        try {
            up.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Copies {@code in} to {@code to}, then half-closes {@code to}; on failure closes both sockets. */
    private static void oneWay(InputStream in, Socket to, Socket from) {
        try {
            copy(in, to.getOutputStream());
            to.shutdownOutput();
        } catch (IOException e) {
            closeQuietly(to);
            closeQuietly(from);
        }
    }

    static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already failing: nothing more to do
        }
    }

    /** Copies until end of stream, flushing each read. */
    static void copy(InputStream in, OutputStream out) throws IOException {
        byte[] buf = new byte[BUFFER];
        for (int n; (n = in.read(buf)) >= 0; ) {
            out.write(buf, 0, n);
            out.flush();
        }
    }
}
