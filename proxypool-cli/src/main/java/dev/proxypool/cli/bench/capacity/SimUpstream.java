package dev.proxypool.cli.bench.capacity;

import dev.proxypool.cli.bench.Http1;
import dev.proxypool.core.wire.HeadReader;
import dev.proxypool.core.wire.Http1Parser;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local upstream HTTP proxy and origin in one, for {@code proxypool bench capacity}: it answers
 * absolute-form requests and {@code CONNECT} itself after a round trip drawn from an
 * {@link RttDistribution}, and fails a share of them ({@link FailureShares}). One virtual thread per
 * connection, loopback only.
 *
 * <p>The simulated round trip is reported so the driver can tell the gateway's own time from it:
 * in the {@value #RTT_HEADER} response header for plain HTTP, and in the first line the tunnel
 * carries ({@code R <micros>}) for {@code CONNECT}. Inside a tunnel the client sends
 * {@code B <request bytes> <response bytes>\n} and that many bytes, and gets the line and the
 * response bytes back; the tunnel then stays open until the client closes it.
 */
public final class SimUpstream implements AutoCloseable {

    public static final String RTT_HEADER = "X-Bench-Rtt-Us";

    /** Bounds what one simulated proxy holds, so a runaway driver cannot exhaust descriptors. */
    static final int MAX_CONNECTIONS = 20_000;

    private final ServerSocket server;
    private final RttDistribution rtt;
    private final FailureShares failures;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger count = new AtomicInteger();
    private final Thread acceptor;
    private final SplittableRandom seeds;
    private volatile boolean closed;

    private SimUpstream(ServerSocket server, RttDistribution rtt, FailureShares failures, long seed) {
        this.server = server;
        this.rtt = rtt;
        this.failures = failures;
        this.seeds = new SplittableRandom(seed);
        this.acceptor =
                Thread.ofVirtual().name("sim-upstream-" + server.getLocalPort()).unstarted(this::accept);
    }

    public static SimUpstream start(RttDistribution rtt, FailureShares failures, long seed) throws IOException {
        ServerSocket s = new ServerSocket(0, 4096, InetAddress.getLoopbackAddress());
        SimUpstream u = new SimUpstream(s, rtt, failures, seed);
        u.acceptor.start();
        return u;
    }

    public int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!closed) {
            Socket c;
            try {
                c = server.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                continue;
            }
            if (count.incrementAndGet() > MAX_CONNECTIONS) {
                count.decrementAndGet();
                reset(c);
                continue;
            }
            open.add(c);
            SplittableRandom random;
            synchronized (seeds) {
                random = seeds.split();
            }
            Thread.ofVirtual().start(() -> {
                try {
                    serve(c, random);
                } catch (IOException | RuntimeException e) {
                    // the peer went away or misbehaved: the connection ends, nothing to report here
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    open.remove(c);
                    count.decrementAndGet();
                    closeQuietly(c);
                }
            });
        }
    }

    private void serve(Socket c, SplittableRandom random) throws IOException, InterruptedException {
        c.setTcpNoDelay(true);
        c.setSoTimeout(60_000);
        InputStream in = new BufferedInputStream(c.getInputStream(), 8192);
        OutputStream out = c.getOutputStream();
        while (true) {
            String requestLine;
            try {
                requestLine = Http1.readLine(in);
            } catch (IOException e) {
                return; // idle keep-alive connection closed by the gateway
            }
            long[] contentLength = {0};
            try {
                Http1Parser.fields(
                        HeadReader.over(in),
                        (name, value) -> {
                            if (name.equalsIgnoreCase("content-length")) {
                                contentLength[0] = Long.parseLong(value);
                            }
                        },
                        Integer.MAX_VALUE,
                        1 << 20,
                        1000,
                        Http1Parser.FieldRules.LENIENT);
            } catch (HeadReader.Incomplete e) {
                throw new EOFException("connection closed");
            }
            in.skipNBytes(contentLength[0]);
            FailureShares.Outcome outcome = failures.pick(random.nextDouble());
            if (outcome == FailureShares.Outcome.REFUSE || outcome == FailureShares.Outcome.RESET) {
                reset(c);
                return;
            }
            long rttMicros = rtt.sampleMicros(random);
            Thread.sleep(Duration.ofNanos(rttMicros * 1000));
            boolean slow = outcome == FailureShares.Outcome.SLOW;
            if (requestLine.regionMatches(true, 0, "CONNECT ", 0, 8)) {
                out.write(Http1.ascii("HTTP/1.1 200 Connection established\r\n\r\n"));
                out.flush();
                tunnel(in, out, rttMicros, slow);
                return;
            }
            int responseBytes = responseBytes(requestLine);
            out.write(Http1.ascii("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n" + RTT_HEADER + ": "
                    + rttMicros + "\r\nContent-Length: " + responseBytes + "\r\n\r\n"));
            writeBody(out, responseBytes, slow);
        }
    }

    /** Inside the tunnel: {@code B <req> <resp>\n}, the request bytes, then the answer; then wait for the close. */
    private static void tunnel(InputStream in, OutputStream out, long rttMicros, boolean slow)
            throws IOException, InterruptedException {
        String[] b = Http1.readLine(in).split(" ");
        if (b.length != 3 || !b[0].equals("B")) {
            return;
        }
        in.skipNBytes(Long.parseLong(b[1]));
        int responseBytes = (int) Math.min(64L << 20, Long.parseLong(b[2]));
        out.write(("R " + rttMicros + "\n").getBytes(StandardCharsets.US_ASCII));
        writeBody(out, responseBytes, slow);
        in.transferTo(OutputStream.nullOutputStream());
    }

    private static void writeBody(OutputStream out, int n, boolean slow) throws IOException, InterruptedException {
        byte[] chunk = new byte[Math.min(n, 16 * 1024)];
        if (slow) {
            // a stalling proxy: the body trickles in ten pieces over SLOW_EXTRA_MILLIS
            int piece = Math.max(1, n / 10);
            for (int sent = 0; sent < n; sent += piece) {
                Thread.sleep(Duration.ofMillis(FailureShares.SLOW_EXTRA_MILLIS / 10));
                out.write(chunk, 0, Math.min(piece, Math.min(chunk.length, n - sent)));
                out.flush();
            }
            return;
        }
        for (int sent = 0; sent < n; sent += chunk.length) {
            out.write(chunk, 0, Math.min(chunk.length, n - sent));
        }
        out.flush();
    }

    /** {@code ...?r=N} in the request target: the response size the driver asks for. */
    static int responseBytes(String requestLine) {
        int q = requestLine.indexOf("?r=");
        if (q < 0) {
            return 0;
        }
        int end = q + 3;
        while (end < requestLine.length() && Character.isDigit(requestLine.charAt(end))) {
            end++;
        }
        return (int) Math.min(64L << 20, Long.parseLong(requestLine.substring(q + 3, end)));
    }

    private static void reset(Socket c) {
        try {
            c.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // closing anyway
        }
        closeQuietly(c);
    }

    private static void closeQuietly(Socket c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        for (Socket s : open) {
            closeQuietly(s);
        }
        acceptor.interrupt();
    }

    private static void closeQuietly(ServerSocket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "sim-upstream 127.0.0.1:%d rtt %s", port(), rtt.describe());
    }
}
