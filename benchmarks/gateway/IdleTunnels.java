// Idle CONNECT tunnels, run by idle-tunnels.sh as a single-file source program (java IdleTunnels.java ...).
//   target PORT                      an idle destination: accepts connections and holds them, never reads or writes
//   open HOST PORT TARGET N SECONDS RELEASE_FILE [PARALLEL]
//                                    opens N tunnels through the proxy at HOST:PORT to TARGET (host:port): CONNECT,
//                                    the 2xx head, then nothing; prints "open=N failed=F seconds=S" and "READY", holds
//                                    every tunnel until RELEASE_FILE exists (or SECONDS pass), then closes them all
// Only loopback, bounded in count and time; PROXY_AUTH (env) goes out as Proxy-Authorization when set.
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

public class IdleTunnels {

    public static void main(String[] a) throws Exception {
        switch (a[0]) {
            case "target" -> target(Integer.parseInt(a[1]));
            case "open" -> open(a[1], Integer.parseInt(a[2]), a[3], Integer.parseInt(a[4]), Integer.parseInt(a[5]),
                    Path.of(a[6]), a.length > 7 ? Integer.parseInt(a[7]) : 32);
            default -> throw new IllegalArgumentException("mode: target | open");
        }
    }

    /** Accepts and holds every connection until killed. */
    static void target(int port) throws IOException {
        List<SocketChannel> held = new ArrayList<>();
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress("127.0.0.1", port), 4096);
            System.out.println("listening " + port);
            System.out.flush();
            while (true) {
                held.add(server.accept());
            }
        }
    }

    static void open(String host, int port, String target, int n, int seconds, Path release, int parallel)
            throws Exception {
        String auth = System.getenv("PROXY_AUTH");
        byte[] request = ("CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n"
                        + (auth == null || auth.isEmpty() ? "" : "Proxy-Authorization: " + auth + "\r\n") + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        ConcurrentLinkedQueue<Socket> open = new ConcurrentLinkedQueue<>();
        AtomicInteger failed = new AtomicInteger();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        Semaphore inFlight = new Semaphore(parallel);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long t0 = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n && System.nanoTime() < deadline; i++) {
                inFlight.acquire();
                pool.execute(() -> {
                    Socket s = new Socket();
                    try {
                        s.connect(new InetSocketAddress(host, port), 10_000);
                        s.setSoTimeout(10_000);
                        s.getOutputStream().write(request);
                        String status = head(s.getInputStream());
                        if (!status.matches("HTTP/1\\.[01] 2\\d\\d.*")) {
                            throw new IOException("answer: " + status);
                        }
                        open.add(s);
                    } catch (IOException e) {
                        failed.incrementAndGet();
                        firstFailure.compareAndSet(null, e.toString());
                        try {
                            s.close();
                        } catch (IOException ignored) {
                            // closing a failed socket
                        }
                    } finally {
                        inFlight.release();
                    }
                });
            }
        }
        System.out.printf("open=%d failed=%d seconds=%.1f%s%n", open.size(), failed.get(),
                (System.nanoTime() - t0) / 1e9, firstFailure.get() == null ? "" : " first_failure=" + firstFailure.get());
        System.out.println("READY");
        System.out.flush();
        while (!Files.exists(release) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        for (Socket s : open) {
            s.close();
        }
        System.out.println("closed=" + open.size());
    }

    /** Reads the response head; returns its status line. */
    static String head(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int matched = 0;
        while (matched < 4) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("closed after " + sb.length() + " bytes of the answer");
            }
            sb.append((char) c);
            matched = (c == '\r' && (matched == 0 || matched == 2)) || (c == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1
                    : 0;
            if (sb.length() > 8192) {
                throw new IOException("answer head over 8 KiB");
            }
        }
        int eol = sb.indexOf("\r\n");
        return sb.substring(0, eol);
    }
}
