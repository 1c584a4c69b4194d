package dev.proxypool.cli.bench;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One keep-alive client connection to the gateway, as a bench worker uses it: plain-HTTP targets
 * are requested in absolute form ({@code GET http://host/path}), HTTPS targets through one
 * {@code CONNECT} tunnel and TLS, reused for every request. Sends {@code Proxy-Authorization:
 * Basic} when a user is given (on the request, or on the {@code CONNECT}). Reconnects after the
 * server closes. Raw sockets rather than a client library: a bench must control how many
 * connections exist and measure the gateway, not a pool inside a client.
 *
 * <p>Each attempt returns null for a 2xx/3xx answer, else an error kind: {@code http_<status>}
 * (plus {@code _<X-ProxyPool-Error>} when the gateway gave a reason), {@code connect_refused},
 * {@code timeout}, {@code closed}, {@code tls}, {@code protocol}, {@code io}. Not thread-safe: one
 * per worker.
 */
public final class GatewayClient implements AutoCloseable {

    private final InetSocketAddress proxy;
    private final URI target;
    private final boolean tls;
    private final String proxyAuthorization;
    private final int timeoutMillis;
    private final SSLSocketFactory tlsFactory;
    private final byte[] request;

    private volatile Socket socket;
    private InputStream in;
    private OutputStream out;

    /**
     * @param user {@code name:password} for {@code Proxy-Authorization}, or null
     */
    public GatewayClient(
            InetSocketAddress proxy, URI target, String user, Duration timeout, SSLSocketFactory tlsFactory) {
        this.proxy = proxy;
        this.target = target;
        this.tls = "https".equalsIgnoreCase(target.getScheme());
        this.proxyAuthorization = user == null
                ? null
                : "Basic " + Base64.getEncoder().encodeToString(user.getBytes(StandardCharsets.UTF_8));
        this.timeoutMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        this.tlsFactory = tlsFactory;
        this.request = Http1.ascii(requestText());
    }

    private String requestText() {
        String path = target.getRawPath() == null || target.getRawPath().isEmpty() ? "/" : target.getRawPath();
        if (target.getRawQuery() != null) {
            path += "?" + target.getRawQuery();
        }
        StringBuilder sb = new StringBuilder(256);
        sb.append("GET ")
                .append(tls ? path : target.getScheme() + "://" + authority() + path)
                .append(" HTTP/1.1\r\n");
        sb.append("Host: ").append(authority()).append("\r\n");
        if (!tls && proxyAuthorization != null) {
            sb.append("Proxy-Authorization: ").append(proxyAuthorization).append("\r\n");
        }
        sb.append("User-Agent: proxypool-bench\r\nAccept: */*\r\n\r\n");
        return sb.toString();
    }

    private String authority() {
        String host = target.getHost();
        if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        int port = target.getPort() > 0 ? target.getPort() : tls ? 443 : 80;
        return host + ":" + port;
    }

    /** One request; null when it succeeded, else its error kind. */
    public String attempt() {
        try {
            if (socket == null) {
                String kind = open();
                if (kind != null) {
                    return kind;
                }
            }
            out.write(request);
            out.flush();
            Http1.Head head = Http1.readHead(in);
            boolean reusable = Http1.skipBody(head, in) && !head.closes();
            if (!reusable) {
                close();
            }
            return head.status() < 400 ? null : statusKind("http_", head);
        } catch (IOException e) {
            close();
            return kind(e);
        }
    }

    /** Connects (and tunnels for HTTPS); null when ready, else the error kind. */
    private String open() throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.setSoTimeout(timeoutMillis);
            s.connect(proxy, timeoutMillis);
            socket = s;
            in = new BufferedInputStream(s.getInputStream(), 16 * 1024);
            out = s.getOutputStream();
            if (tls) {
                StringBuilder connect = new StringBuilder(128)
                        .append("CONNECT ")
                        .append(authority())
                        .append(" HTTP/1.1\r\nHost: ")
                        .append(authority())
                        .append("\r\n");
                if (proxyAuthorization != null) {
                    connect.append("Proxy-Authorization: ")
                            .append(proxyAuthorization)
                            .append("\r\n");
                }
                out.write(Http1.ascii(connect.append("\r\n").toString()));
                out.flush();
                Http1.Head head = Http1.readHead(in);
                if (head.status() != 200) {
                    close();
                    return statusKind("connect_", head);
                }
                SSLSocket ssl = (SSLSocket) tlsFactory.createSocket(
                        s, target.getHost(), target.getPort() > 0 ? target.getPort() : 443, true);
                ssl.setSoTimeout(timeoutMillis);
                ssl.startHandshake();
                socket = ssl;
                in = new BufferedInputStream(ssl.getInputStream(), 16 * 1024);
                out = ssl.getOutputStream();
            }
            return null;
        } catch (IOException e) {
            try {
                s.close();
            } catch (IOException ignored) {
                // already failing
            }
            socket = null;
            throw e;
        }
    }

    private static String statusKind(String prefix, Http1.Head head) {
        String reason = head.field("x-proxypool-error");
        return prefix
                + head.status()
                + (reason == null || reason.isBlank()
                        ? ""
                        : "_" + reason.strip().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_"));
    }

    /**
     * The failure reason a bench reports for an I/O error.
     *
     * @param e the error of one exchange
     * @return its reason ({@code connect_refused}, {@code timeout}, {@code tls}, {@code closed}, {@code protocol},
     *     {@code reset} or {@code io})
     */
    public static String kind(IOException e) {
        if (e instanceof ConnectException) {
            return "connect_refused";
        }
        if (e instanceof SocketTimeoutException) {
            return "timeout";
        }
        if (e instanceof SSLException) {
            return "tls";
        }
        if (e instanceof EOFException) {
            return "closed";
        }
        if (e instanceof Http1.ProtocolException) {
            return "protocol";
        }
        if (e instanceof SocketException) {
            return "reset";
        }
        return "io";
    }

    @Override
    public void close() {
        Socket s = socket;
        socket = null;
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
