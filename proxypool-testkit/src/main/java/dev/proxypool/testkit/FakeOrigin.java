package dev.proxypool.testkit;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small HTTP/1.1 origin (keep-alive; {@code Connection: close} or HTTP/1.0 closes):
 * <ul>
 *   <li>{@code /echo}: JSON {@code {"ip": "<peer address>", "headers": {...}}}, the shape of the
 *       product's {@code GET /v1/echo}: header names as received, repeated fields joined with
 *       {@code ", "}; parse it with {@link EchoResponse#parse(String)};</li>
 *   <li>{@code /bytes?n=N}: N bytes ({@code a..z} repeating) with {@code Content-Length};</li>
 *   <li>{@code /chunked?n=N}: the same N bytes in chunked encoding (8 KiB chunks);</li>
 *   <li>{@code /status/{code}}: that status (200..599);</li>
 *   <li>{@code /slow?ms=M}: waits M ms, then {@code 200 slow};</li>
 *   <li>{@code /}: a short text page; anything else {@code 404}.</li>
 * </ul>
 * {@code HEAD} is answered without a body; request bodies are read and discarded. TLS mode serves
 * HTTPS with the test kit's certificate (trusted by {@link TestTls#clientContext()}).
 */
public final class FakeOrigin extends FakeServer {

    private static final int CHUNK = 8192;
    private static final long MAX_BYTES = 1L << 32;
    private static final long MAX_SLOW_MS = 60_000;
    private static final byte[] CRLF = {'\r', '\n'};

    private final AtomicLong requests = new AtomicLong();
    private final AtomicInteger slowNow = new AtomicInteger();
    private final AtomicInteger slowMax = new AtomicInteger();

    private FakeOrigin(Builder b) {
        super(b.tls ? "fake-origin-tls" : "fake-origin", b.bind, b.tls ? TestTls.serverContext() : null, b.faults);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A plain HTTP origin on 127.0.0.1. */
    public static FakeOrigin start() {
        return builder().start();
    }

    /** {@code http(s)://host:port} + {@code path}. */
    public String url(String path) {
        return (isTls() ? "https://" : "http://") + authority() + path;
    }

    public URI uri(String path) {
        return URI.create(url(path));
    }

    /**
     * The most {@code /slow} requests that were being answered at the same time since the start,
     * counted from their arrival to just before their first response byte: each such span lies
     * wholly inside the time a proxy in front of this origin held the request, so this is a lower
     * bound of that proxy's concurrency that never over-counts (no lag from closes).
     */
    public int maxConcurrentSlow() {
        return slowMax.get();
    }

    /** Requests answered (any status). */
    public long requests() {
        return requests.get();
    }

    @Override
    void serve(Connection c) throws IOException {
        while (true) {
            HttpHead req = HttpHead.read(c.in());
            if (req == null) {
                return;
            }
            String[] line;
            try {
                line = req.requestLine();
            } catch (HttpHead.HttpParseException e) {
                respond(c.out(), "GET", 400, "text/plain", bytes("bad request\n"), true);
                return;
            }
            HttpBody.copyRequestBody(req, c.in(), null);
            requests.incrementAndGet();
            boolean close = req.wantsClose(line[2]);
            if (!answer(c, req, line[0], line[1], close)) {
                return;
            }
            if (close) {
                return;
            }
        }
    }

    /** Answers one request; false when the connection must close. */
    private boolean answer(Connection c, HttpHead req, String method, String target, boolean close) throws IOException {
        URI uri;
        try {
            uri = new URI(target);
        } catch (URISyntaxException e) {
            respond(c.out(), method, 400, "text/plain", bytes("bad target\n"), true);
            return false;
        }
        String path = uri.getPath() == null ? "/" : uri.getPath();
        Map<String, String> query = query(uri.getRawQuery());
        OutputStream out = c.out();
        if (path.equals("/echo")) {
            respond(out, method, 200, "application/json", bytes(echoJson(c.peerAddress(), req)), close);
        } else if (path.equals("/bytes") || path.equals("/chunked")) {
            long n = number(query.get("n"), MAX_BYTES);
            if (n < 0) {
                respond(out, method, 400, "text/plain", bytes("n must be 0.." + MAX_BYTES + "\n"), true);
                return false;
            }
            if (path.equals("/bytes")) {
                out.write(head(200, "application/octet-stream", "Content-Length: " + n, close));
                if (!method.equals("HEAD")) {
                    writePattern(out, n, false);
                }
            } else {
                out.write(head(200, "application/octet-stream", "Transfer-Encoding: chunked", close));
                if (!method.equals("HEAD")) {
                    writePattern(out, n, true);
                }
            }
        } else if (path.startsWith("/status/")) {
            long code = number(path.substring("/status/".length()), 599);
            if (code < 200) {
                respond(out, method, 400, "text/plain", bytes("status must be 200..599\n"), true);
                return false;
            }
            byte[] body = code == 204 || code == 304 ? new byte[0] : bytes("status " + code + "\n");
            respond(out, method, (int) code, "text/plain", body, close);
        } else if (path.equals("/slow")) {
            long ms = number(query.get("ms"), MAX_SLOW_MS);
            if (ms < 0) {
                respond(out, method, 400, "text/plain", bytes("ms must be 0.." + MAX_SLOW_MS + "\n"), true);
                return false;
            }
            slowMax.accumulateAndGet(slowNow.incrementAndGet(), Math::max);
            try {
                sleep(Duration.ofMillis(ms));
            } finally {
                slowNow.decrementAndGet();
            }
            respond(out, method, 200, "text/plain", bytes("slow\n"), close);
        } else if (path.equals("/")) {
            respond(out, method, 200, "text/plain", bytes("proxypool test kit origin: try /echo\n"), close);
        } else {
            respond(out, method, 404, "text/plain", bytes("not found\n"), close);
        }
        return true;
    }

    static String echoJson(String ip, HttpHead req) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String[] f : req.fields()) {
            headers.merge(f[0], f[1], (a, b) -> a + ", " + b);
        }
        StringBuilder sb =
                new StringBuilder(256).append("{\"ip\": ").append(quote(ip)).append(", \"headers\": {");
        String sep = "";
        for (Map.Entry<String, String> e : headers.entrySet()) {
            sb.append(sep).append(quote(e.getKey())).append(": ").append(quote(e.getValue()));
            sep = ", ";
        }
        return sb.append("}}").toString();
    }

    /** A JSON string literal, escaped by Jackson's encoder. */
    private static String quote(String s) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
    }

    private static void respond(OutputStream out, String method, int status, String type, byte[] body, boolean close)
            throws IOException {
        byte[] head = head(status, type, "Content-Length: " + body.length, close);
        if (method.equals("HEAD") || body.length == 0) {
            out.write(head);
            return;
        }
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        out.write(all);
    }

    private static byte[] head(int status, String type, String framing, boolean close) {
        return ("HTTP/1.1 " + status + " " + reason(status) + "\r\nContent-Type: " + type + "\r\n" + framing + "\r\n"
                        + (close ? "Connection: close\r\n" : "") + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    private static void writePattern(OutputStream out, long n, boolean chunked) throws IOException {
        byte[] buf = new byte[CHUNK];
        for (int i = 0; i < buf.length; i++) {
            buf[i] = (byte) ('a' + i % 26);
        }
        long sent = 0;
        while (sent < n) {
            int len = (int) Math.min(buf.length, n - sent);
            if (chunked) {
                out.write((Integer.toHexString(len) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            }
            out.write(buf, 0, len); // the pattern restarts every CHUNK bytes: see patternByte
            if (chunked) {
                out.write(CRLF);
            }
            sent += len;
        }
        if (chunked) {
            out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    /** The byte at {@code offset} of a {@code /bytes} or {@code /chunked} body. */
    public static byte patternByte(long offset) {
        return (byte) ('a' + (offset % CHUNK) % 26);
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new LinkedHashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                q.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
            }
        }
        return q;
    }

    /** A non-negative number at most {@code max}; -1 when absent or invalid. */
    private static long number(String s, long max) {
        if (s == null || s.isEmpty() || s.length() > 19) {
            return -1;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return -1;
            }
        }
        long v = Long.parseLong(s);
        return v > max ? -1 : v;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void sleep(Duration d) throws IOException {
        try {
            Thread.sleep(d); // the delay the request asked for: the behaviour served, not a wait for a condition
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
        }
    }

    static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 204 -> "No Content";
            case 301 -> "Moved Permanently";
            case 302 -> "Found";
            case 304 -> "Not Modified";
            case 400 -> "Bad Request";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            default -> "Status";
        };
    }

    /** Options of a {@link FakeOrigin}. */
    public static final class Builder {
        private boolean tls;
        private InetAddress bind = InetAddress.getLoopbackAddress();
        private Faults faults = Faults.NONE;

        private Builder() {}

        /** Serves HTTPS with the test kit's self-signed certificate. */
        public Builder tls() {
            this.tls = true;
            return this;
        }

        /** Binds {@code ::1} instead of {@code 127.0.0.1}. */
        public Builder ipv6() {
            try {
                this.bind = InetAddress.getByName("::1");
            } catch (UnknownHostException e) {
                throw new IllegalStateException("::1 is always a literal", e);
            }
            return this;
        }

        public Builder faults(Faults f) {
            this.faults = Objects.requireNonNull(f, "faults");
            return this;
        }

        public FakeOrigin start() {
            FakeOrigin o = new FakeOrigin(this);
            o.begin();
            return o;
        }
    }
}
