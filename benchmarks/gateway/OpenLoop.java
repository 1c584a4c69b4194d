// Open-loop HTTP load through a forward proxy, run by run.sh as a single-file source program
// (java OpenLoop.java PROXY_HOST PROXY_PORT URL RATE SECONDS [WARMUP_SECONDS]).
//
// Requests are scheduled by the clock: request i is due at t0 + i / RATE, whatever happened to the
// earlier ones. Its latency is measured from that intended send time, not from when a connection
// became free, so a stalled proxy is charged for the whole queue it builds (no coordinated
// omission, as in wrk2). Each due request goes to an idle keep-alive connection, or a new one when
// all are busy (up to MAX_CONNECTIONS, 64; beyond that the request waits for a free one, and the wait counts).
// Prints: rate=... sent=... ok=... errors=... p50ms=... p99ms=... p999ms=... maxms=... conns=...
import java.io.*;
import java.net.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.concurrent.locks.LockSupport;

public class OpenLoop {
    /**
     * A cap near wrk's 50 connections: enough for the offered rate at tens of ms of latency, and a
     * stalled proxy is not answered with hundreds of new connections (with 512 allowed, squid B's
     * latency ran into seconds while it served far below its wrk peak: not the measure wanted).
     */
    static final int MAX_CONNECTIONS = 64;

    record Conn(Socket socket, InputStream in, OutputStream out) {
    }

    public static void main(String[] a) throws Exception {
        String host = a[0];
        int port = Integer.parseInt(a[1]);
        String url = a[2];
        double rate = Double.parseDouble(a[3]);
        int seconds = Integer.parseInt(a[4]);
        int warmup = a.length > 5 ? Integer.parseInt(a[5]) : 2;
        String authority = url.replaceFirst("^http://", "").replaceFirst("/.*$", "");
        String auth = System.getenv("PROXY_AUTH"); // the gateway client's credentials (run.sh), sent to every proxy
        String authLine = auth == null || auth.isEmpty() ? "" : "Proxy-Authorization: " + auth + "\r\n";
        byte[] request = ("GET " + url + " HTTP/1.1\r\nHost: " + authority + "\r\n" + authLine + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        LinkedBlockingDeque<Conn> idle = new LinkedBlockingDeque<>();
        Semaphore connSlots = new Semaphore(MAX_CONNECTIONS);
        AtomicInteger opened = new AtomicInteger();
        long total = (long) (rate * (seconds + warmup));
        long measuredFrom = (long) (rate * warmup);
        long[] lat = new long[(int) (total - measuredFrom)];
        Arrays.fill(lat, -1);
        LongAdder errors = new LongAdder();
        ConcurrentHashMap<String, LongAdder> errorKinds = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch((int) total);
        ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
        long intervalNanos = (long) (1e9 / rate);
        long t0 = System.nanoTime() + 50_000_000L;
        for (long i = 0; i < total; i++) {
            long due = t0 + i * intervalNanos;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                // no spinning (the machine is shared): a late wake-up delays the send, and the delay
                // counts in the latency, which is measured from the intended time
                LockSupport.parkNanos(wait);
            }
            final long idx = i;
            workers.execute(() -> {
                try {
                    Conn c = idle.pollFirst();
                    if (c == null && connSlots.tryAcquire()) {
                        c = open(host, port);
                        opened.incrementAndGet();
                    } else if (c == null) { // all MAX_CONNECTIONS busy: wait for one (the wait counts)
                        c = idle.takeFirst();
                    }
                    boolean ok = false;
                    try {
                        c.out().write(request);
                        c.out().flush();
                        ok = readResponse(c.in());
                        if (!ok) {
                            errorKinds.computeIfAbsent("not a keep-alive 200", k -> new LongAdder()).increment();
                        }
                    } catch (IOException e) {
                        errorKinds.computeIfAbsent(e.getClass().getSimpleName(), k -> new LongAdder()).increment();
                    }
                    long took = System.nanoTime() - due;
                    if (ok) {
                        idle.offerFirst(c);
                        if (idx >= measuredFrom) {
                            lat[(int) (idx - measuredFrom)] = took;
                        }
                    } else {
                        errors.increment();
                        c.socket().close();
                        connSlots.release();
                    }
                } catch (Exception e) {
                    errors.increment();
                    errorKinds.computeIfAbsent("connect: " + e.getClass().getSimpleName(), k -> new LongAdder())
                            .increment();
                } finally {
                    done.countDown();
                }
            });
        }
        done.await(60, TimeUnit.SECONDS);
        workers.shutdownNow();
        long[] ok = Arrays.stream(lat).filter(v -> v >= 0).sorted().toArray();
        for (Conn c : idle) {
            c.socket().close();
        }
        System.out.printf(Locale.ROOT,
                "rate=%.0f sent=%d ok=%d errors=%d p50ms=%.3f p99ms=%.3f p999ms=%.3f maxms=%.3f conns=%d%n",
                rate, lat.length, ok.length, errors.sum(), pct(ok, 0.50), pct(ok, 0.99), pct(ok, 0.999),
                ok.length == 0 ? 0 : ok[ok.length - 1] / 1e6, opened.get());
        if (!errorKinds.isEmpty()) {
            System.err.println("errors by kind: " + errorKinds);
        }
    }

    static double pct(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * q) - 1)] / 1e6;
    }

    static Conn open(String host, int port) throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(new InetSocketAddress(host, port), 5000);
        s.setSoTimeout(10_000);
        return new Conn(s, new BufferedInputStream(s.getInputStream(), 16 * 1024), s.getOutputStream());
    }

    /** Reads one response (head + Content-Length body); false when it is not a 200 or the peer closed. */
    static boolean readResponse(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder(256);
        int b;
        while ((b = in.read()) >= 0) {
            head.append((char) b);
            int n = head.length();
            if (n >= 4 && head.charAt(n - 1) == '\n' && head.charAt(n - 3) == '\n') {
                break;
            }
        }
        if (b < 0) {
            return false;
        }
        String h = head.toString();
        long length = 0;
        for (String line : h.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
                length = Long.parseLong(line.substring(colon + 1).trim());
            }
        }
        for (long left = length; left > 0; left--) {
            if (in.read() < 0) {
                return false;
            }
        }
        boolean close = h.toLowerCase(Locale.ROOT).contains("\r\nconnection: close");
        return h.startsWith("HTTP/1.1 200") && !close;
    }
}
