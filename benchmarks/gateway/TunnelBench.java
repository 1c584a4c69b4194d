// Load client for CONNECT tunnels, run by run.sh as a single-file source program (java TunnelBench.java ...).
// setup: C threads open tunnels in a loop (CONNECT, 200, one small GET through the tunnel, close) -> tunnels/s, P50/P99.
// bulk:  C threads download a large file through a tunnel in a loop -> MB/s.
import java.io.*;
import java.net.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

public class TunnelBench {
    public static void main(String[] a) throws Exception {
        String proxyHost = a[0];
        int proxyPort = Integer.parseInt(a[1]);
        String target = a[2];          // host:port of the origin (plain HTTP behind the tunnel)
        String mode = a[3];            // setup | bulk
        int seconds = Integer.parseInt(a[4]);
        int threads = Integer.parseInt(a[5]);
        String path = a[6];
        String auth = System.getenv("PROXY_AUTH"); // the gateway client's credentials (run.sh), sent to every proxy
        String authLine = auth == null || auth.isEmpty() ? "" : "Proxy-Authorization: " + auth + "\r\n";
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        LongAdder count = new LongAdder();
        LongAdder bytes = new LongAdder();
        LongAdder errors = new LongAdder();
        ConcurrentLinkedQueue<long[]> lat = new ConcurrentLinkedQueue<>();
        List<Thread> ts = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                long[] mine = new long[1 << 20];
                int n = 0;
                byte[] buf = new byte[64 * 1024];
                while (System.nanoTime() < deadline) {
                    long s = System.nanoTime();
                    try (Socket sock = new Socket()) {
                        sock.setTcpNoDelay(true);
                        sock.connect(new InetSocketAddress(proxyHost, proxyPort), 5000);
                        sock.setSoTimeout(10000);
                        OutputStream out = sock.getOutputStream();
                        InputStream in = new BufferedInputStream(sock.getInputStream(), 64 * 1024);
                        out.write(("CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n" + authLine + "\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                        String status = readHead(in);
                        if (!status.startsWith("HTTP/1.1 200") && !status.startsWith("HTTP/1.0 200")) {
                            errors.increment();
                            continue;
                        }
                        long established = System.nanoTime() - s;
                        out.write(("GET " + path + " HTTP/1.1\r\nHost: " + target + "\r\nConnection: close\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                        long got = 0;
                        int r;
                        while ((r = in.read(buf)) >= 0) {
                            got += r;
                        }
                        bytes.add(got);
                        count.increment();
                        if (n < mine.length) {
                            mine[n++] = established;
                        }
                    } catch (IOException e) {
                        errors.increment();
                    }
                }
                lat.add(Arrays.copyOf(mine, n));
            });
            t.start();
            ts.add(t);
        }
        for (Thread t : ts) {
            t.join();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        long[] all = lat.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        double p50 = all.length == 0 ? 0 : all[all.length / 2] / 1e6;
        double p99 = all.length == 0 ? 0 : all[Math.min(all.length - 1, (int) (all.length * 0.99))] / 1e6;
        if (mode.equals("setup")) {
            System.out.printf(Locale.ROOT, "tunnels/s=%.0f p50ms=%.3f p99ms=%.3f errors=%d count=%d%n",
                    count.sum() / secs, p50, p99, errors.sum(), count.sum());
        } else {
            System.out.printf(Locale.ROOT, "MB/s=%.1f transfers=%d errors=%d%n",
                    bytes.sum() / secs / 1e6, count.sum(), errors.sum());
        }
    }

    static String readHead(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            sb.append((char) b);
            int n = sb.length();
            if (n >= 4 && sb.charAt(n - 1) == '\n' && sb.charAt(n - 3) == '\n') {
                break;
            }
        }
        return sb.toString();
    }
}
