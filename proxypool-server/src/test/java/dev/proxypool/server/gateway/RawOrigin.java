package dev.proxypool.server.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A byte-exact origin: records each request head it receives (as text) and answers with whatever
 * {@code responder} returns for it (raw bytes, so tests control framing, trailers and closes).
 * A response ending the connection is signalled by {@link #CLOSE} appended to the responder's bytes.
 */
final class RawOrigin implements AutoCloseable {

    /** Marker: the responder's bytes end with this to close the connection after writing. */
    static final String CLOSE = "\u0000CLOSE";

    final BlockingQueue<String> heads = new LinkedBlockingQueue<>();
    final AtomicInteger connections = new AtomicInteger();
    private final ServerSocket server;
    private final Function<String, String> responder;

    RawOrigin(Function<String, String> responder) throws IOException {
        this.responder = responder;
        this.server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::accept);
    }

    int port() {
        return server.getLocalPort();
    }

    String authority() {
        return "127.0.0.1:" + port();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                connections.incrementAndGet();
                Thread.ofVirtual().start(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                long len = contentLength(head);
                for (long i = 0; i < len; i++) {
                    if (in.read() < 0) {
                        return;
                    }
                }
                heads.add(head);
                String resp = responder.apply(head);
                boolean close = resp.endsWith(CLOSE);
                if (close) {
                    resp = resp.substring(0, resp.length() - CLOSE.length());
                }
                out.write(resp.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                if (close) {
                    return;
                }
            }
        } catch (IOException ignored) {
            // the test closed its side
        }
    }

    static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        int state = 0;
        while ((c = in.read()) >= 0) {
            b.write(c);
            state = (c == '\r' && (state == 0 || state == 2))
                    ? state + 1
                    : (c == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
            if (state == 4) {
                return b.toString(StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    private static long contentLength(String head) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase("Content-Length")) {
                return Long.parseLong(line.substring(colon + 1).trim());
            }
        }
        return 0;
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
