package dev.proxypool.cli.demo;

import dev.proxypool.core.wire.HeadException;
import dev.proxypool.core.wire.HeadReader;
import dev.proxypool.core.wire.Http1Parser;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A minimal HTTP forward proxy for the demo: absolute-form requests ({@code GET http://host/path})
 * are forwarded to the origin, {@code CONNECT host:port} opens a byte tunnel. With credentials it
 * answers requests without the matching {@code Proxy-Authorization: Basic ...} with {@code 407};
 * without, it admits every request (whatever credentials it carries, like a vendor's session
 * gateway that the demo lists as many {@code session-N} users).
 *
 * <p>One request per client connection: a forwarded request goes to the origin with
 * {@code Connection: close}, and the answer is passed back with {@code Connection: close}, so the
 * response ends where the origin's stream ends and no body framing needs parsing. Hop-by-hop fields
 * and {@code Proxy-Authorization} are not forwarded. Its own answers: {@code 400} for a request it
 * cannot read, {@code 502} when the target refuses or does not resolve, {@code 504} when connecting
 * times out.
 */
public final class DemoHttpProxy extends LoopbackService {

    private static final int MAX_HEAD = 64 * 1024;
    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final int ORIGIN_READ_TIMEOUT_MS = 60_000;
    private static final Set<String> HOP_BY_HOP = Set.of(
            "connection",
            "keep-alive",
            "proxy-connection",
            "proxy-authorization",
            "proxy-authenticate",
            "te",
            "trailer",
            "upgrade");

    private final byte[] expectedAuthorization;

    private DemoHttpProxy(String user, String password) {
        super(user == null ? "http-proxy" : "http-proxy-auth");
        this.expectedAuthorization = user == null
                ? null
                : ("Basic "
                                + Base64.getEncoder()
                                        .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)))
                        .getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A proxy that admits every request. */
    public static DemoHttpProxy open() {
        return new DemoHttpProxy(null, null);
    }

    /** A proxy that requires Basic credentials {@code user:password}. */
    public static DemoHttpProxy withBasicAuth(String user, String password) {
        if (user == null || user.isEmpty() || user.indexOf(':') >= 0 || password == null) {
            throw new IllegalArgumentException("demo proxy user must be non-empty without ':', and a password given");
        }
        return new DemoHttpProxy(user, password);
    }

    @Override
    void handle(Socket client) throws IOException {
        InputStream in = new BufferedInputStream(client.getInputStream());
        OutputStream out = client.getOutputStream();
        List<String> head = readHead(in);
        if (head == null) {
            return;
        }
        String[] line;
        try {
            Http1Parser.RequestLine l = Http1Parser.requestLine(head.getFirst());
            line = new String[] {l.method(), l.target(), l.http11() ? "HTTP/1.1" : "HTTP/1.0"};
        } catch (HeadException e) {
            answer(out, 400, "Bad Request", "not an HTTP/1.x request line\n");
            return;
        }
        if (!authorized(head)) {
            out.write(("HTTP/1.1 407 Proxy Authentication Required\r\n"
                            + "Proxy-Authenticate: Basic realm=\"proxypool demo\"\r\n"
                            + "Content-Length: 0\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return;
        }
        if (line[0].equals("CONNECT")) {
            tunnel(client, in, out, line[1]);
        } else {
            forward(client, in, out, line, head);
        }
    }

    private boolean authorized(List<String> head) {
        if (expectedAuthorization == null) {
            return true;
        }
        String given = field(head, "proxy-authorization");
        return given != null
                && MessageDigest.isEqual(expectedAuthorization, given.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static void tunnel(Socket client, InputStream in, OutputStream out, String authority) throws IOException {
        URI at;
        try {
            at = new URI("tunnel://" + authority);
        } catch (URISyntaxException e) {
            at = null;
        }
        if (at == null || at.getHost() == null || at.getPort() < 1) {
            answer(out, 400, "Bad Request", "CONNECT needs host:port\n");
            return;
        }
        try (Socket target = connect(at.getHost(), at.getPort(), out)) {
            if (target == null) {
                return;
            }
            out.write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            Splice.both(client, in, target);
        }
    }

    private static void forward(Socket client, InputStream in, OutputStream out, String[] line, List<String> head)
            throws IOException {
        URI uri = absoluteHttp(line[1]);
        if (uri == null) {
            answer(out, 400, "Bad Request", "a forward proxy needs an absolute http:// target\n");
            return;
        }
        int port = uri.getPort() < 0 ? 80 : uri.getPort();
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        try (Socket origin = connect(uri.getHost(), port, out)) {
            if (origin == null) {
                return;
            }
            origin.setSoTimeout(ORIGIN_READ_TIMEOUT_MS);
            OutputStream toOrigin = origin.getOutputStream();
            StringBuilder request = new StringBuilder(line[0])
                    .append(' ')
                    .append(path)
                    .append(' ')
                    .append(line[2])
                    .append("\r\n");
            appendEndToEnd(request, head);
            if (field(head, "host") == null) {
                request.append("Host: ").append(uri.getRawAuthority()).append("\r\n");
            }
            request.append("Connection: close\r\n\r\n");
            toOrigin.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            sendBody(in, toOrigin, head);
            InputStream fromOrigin = new BufferedInputStream(origin.getInputStream());
            relayResponse(fromOrigin, out);
        } catch (SocketTimeoutException e) {
            client.close(); // the origin stopped answering mid-response: nothing sane left to send
        }
    }

    /** The request target as an absolute {@code http://} URI with a host, or null. */
    private static URI absoluteHttp(String target) {
        try {
            URI uri = new URI(target);
            return "http".equalsIgnoreCase(uri.getScheme()) && uri.getHost() != null ? uri : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** The request body: {@code Content-Length} bytes, or a chunked stream passed on as it comes. */
    private static void sendBody(InputStream in, OutputStream toOrigin, List<String> head) throws IOException {
        String length = field(head, "content-length");
        if (length != null) {
            long n;
            try {
                n = Long.parseLong(length.strip());
            } catch (NumberFormatException e) {
                throw new IOException("bad Content-Length: " + length);
            }
            byte[] buf = new byte[8192];
            while (n > 0) {
                int r = in.read(buf, 0, (int) Math.min(buf.length, n));
                if (r < 0) {
                    throw new IOException("client closed inside the request body");
                }
                toOrigin.write(buf, 0, r);
                n -= r;
            }
            toOrigin.flush();
        } else if (field(head, "transfer-encoding") != null) {
            // framed by the chunks themselves; the origin reads to the last one, the copy ends with the connection
            Thread.ofVirtual().start(() -> {
                try {
                    Splice.copy(in, toOrigin);
                } catch (IOException ignored) {
                    // the exchange is over
                }
            });
        }
    }

    /** Passes interim (1xx) heads on as they are, then the final head with {@code Connection: close} and the body. */
    private static void relayResponse(InputStream fromOrigin, OutputStream out) throws IOException {
        while (true) {
            List<String> head = readHead(fromOrigin);
            if (head == null) {
                answer(out, 502, "Bad Gateway", "the origin closed without answering\n");
                return;
            }
            String status = head.getFirst();
            boolean interim = status.length() > 9 && status.charAt(9) == '1' && !status.startsWith("101", 9);
            StringBuilder sb = new StringBuilder(status).append("\r\n");
            if (interim) {
                for (int i = 1; i < head.size(); i++) {
                    sb.append(head.get(i)).append("\r\n");
                }
                out.write(sb.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
                continue;
            }
            appendEndToEnd(sb, head);
            out.write(sb.append("Connection: close\r\n\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            Splice.copy(fromOrigin, out);
            return;
        }
    }

    /** The head's fields without hop-by-hop ones (fixed, and those the {@code Connection} field names). */
    private static void appendEndToEnd(StringBuilder to, List<String> head) {
        Set<String> drop = new HashSet<>(HOP_BY_HOP);
        String connection = field(head, "connection");
        if (connection != null) {
            for (String token : connection.split(",")) {
                drop.add(token.strip().toLowerCase(Locale.ROOT));
            }
        }
        for (int i = 1; i < head.size(); i++) {
            String f = head.get(i);
            int colon = f.indexOf(':');
            if (colon > 0 && !drop.contains(f.substring(0, colon).strip().toLowerCase(Locale.ROOT))) {
                to.append(f).append("\r\n");
            }
        }
    }

    /** Connects to the target, or answers the client 502/504 and returns null. */
    private static Socket connect(String host, int port, OutputStream out) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
            return s;
        } catch (SocketTimeoutException e) {
            s.close();
            answer(out, 504, "Gateway Timeout", "connecting to the target timed out\n");
        } catch (IOException e) {
            s.close();
            answer(out, 502, "Bad Gateway", "cannot reach the target\n");
        }
        return null;
    }

    /** The first value of a field (name in lower case), or null. */
    private static String field(List<String> head, String name) {
        for (int i = 1; i < head.size(); i++) {
            String f = head.get(i);
            int colon = f.indexOf(':');
            if (colon > 0 && f.substring(0, colon).strip().equalsIgnoreCase(name)) {
                return f.substring(colon + 1).strip();
            }
        }
        return null;
    }

    private static void answer(OutputStream out, int status, String reason, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: text/plain\r\nContent-Length: " + b.length
                        + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.write(b);
        out.flush();
    }

    /**
     * The lines of one message head up to the empty line (CRLF or bare LF), or null at end of
     * stream before any byte: the start line as sent, then each field as {@code name: value}, read
     * with the shared HTTP/1 parser (lenient fields). Longer than {@value #MAX_HEAD} bytes or cut
     * off: an exception.
     */
    static List<String> readHead(InputStream in) throws IOException {
        HeadReader r = HeadReader.over(in);
        String start;
        try {
            do { // a stray empty line before a message is tolerated
                start = r.nextLine(MAX_HEAD - r.consumed());
                if (start == null) {
                    if (r.consumed() == 0) {
                        return null;
                    }
                    throw new IOException("message head cut off");
                }
            } while (start.isEmpty());
        } catch (HeadReader.Incomplete e) {
            throw new IOException("message head cut off");
        } catch (HeadException e) {
            throw new IOException("message head longer than " + MAX_HEAD + " bytes");
        }
        List<String> lines = new ArrayList<>();
        lines.add(start);
        try {
            Http1Parser.fields(
                    r,
                    (name, value) -> lines.add(name + ": " + value),
                    MAX_HEAD - r.consumed(),
                    Integer.MAX_VALUE,
                    Http1Parser.FieldRules.LENIENT);
        } catch (HeadReader.Incomplete e) {
            throw new IOException("message head cut off");
        } catch (HeadException e) {
            throw e.kind() == HeadException.Kind.HEADERS_TOO_LARGE
                    ? new IOException("message head longer than " + MAX_HEAD + " bytes")
                    : e;
        }
        return lines;
    }
}
