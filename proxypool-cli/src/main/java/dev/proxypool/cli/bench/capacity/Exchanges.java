package dev.proxypool.cli.bench.capacity;

import dev.proxypool.cli.bench.GatewayClient;
import dev.proxypool.cli.bench.Http1;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.core.wire.Socks5Codec;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedDeque;
import javax.net.ssl.SSLSocket;

/**
 * The client side of one arrival: a plain-HTTP request on a pooled keep-alive connection (each
 * carries {@code requestsPerConnection} requests, then closes, like a browser or an HTTP client
 * pool), a {@code CONNECT} tunnel or a SOCKS5 tunnel, each a fresh connection held open for the
 * profile's tunnel duration after its exchange. Latency counts from the arrival's <em>scheduled</em>
 * time, so a gateway that falls behind shows as latency, not as fewer requests (no coordinated
 * omission). Raw sockets, one virtual thread per arrival.
 */
final class Exchanges implements AutoCloseable {

    /** Destination of every request: the simulated upstreams answer themselves, nothing leaves the machine. */
    static final String DESTINATION = "127.0.0.1";

    static final int TUNNEL_PORT = 443;

    private final GatewayTarget target;
    private final TrafficProfile profile;
    private final int timeoutMillis;
    private final Gauges gauges;
    private final Ticker ticker;
    private final ConcurrentLinkedDeque<HttpConnection> idle = new ConcurrentLinkedDeque<>();
    private final String pad;

    Exchanges(GatewayTarget target, TrafficProfile profile, Duration timeout, Gauges gauges, Ticker ticker) {
        this.target = target;
        this.profile = profile;
        this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
        this.gauges = gauges;
        this.ticker = ticker;
        this.pad = "x".repeat(profile.requestBytes());
    }

    /** {@code null} for anonymous; a sticky arrival names a session in the username. */
    private String user(int session) {
        if (target.user() == null) {
            return null;
        }
        return session < 0 ? target.user() : target.user() + "-session-s" + session;
    }

    private String proxyAuthorization(int session) {
        String u = user(session);
        return u == null
                ? ""
                : "Proxy-Authorization: Basic "
                        + Base64.getEncoder()
                                .encodeToString((u + ":" + target.secret()).getBytes(StandardCharsets.UTF_8))
                        + "\r\n";
    }

    void http(long scheduled, StepStats stats, int session) {
        HttpConnection c = idle.pollFirst();
        boolean reused = c != null;
        try {
            if (c == null) {
                c = new HttpConnection(openGateway());
            }
            long rtt;
            try {
                rtt = c.request(session);
            } catch (IOException e) {
                if (!reused) {
                    throw e;
                }
                // a pooled connection the gateway closed while idle: what every client does, once more on a new one
                c.close();
                c = null;
                c = new HttpConnection(openGateway());
                rtt = c.request(session);
            }
            stats.ok(ticker.read() - scheduled, rtt);
            if (c.reusable && c.uses < profile.requestsPerConnection()) {
                idle.addFirst(c);
            } else {
                c.close();
            }
        } catch (StatusException e) {
            stats.error(e.getMessage());
            if (c != null) {
                c.close();
            }
        } catch (IOException e) {
            stats.error(kind(e));
            if (c != null) {
                c.close();
            }
        }
    }

    void tunnel(long scheduled, StepStats stats, int session, boolean socks) throws InterruptedException {
        Socket s = null;
        boolean counted = false;
        try {
            s = socks ? openSocks(session) : openGateway();
            InputStream in = new BufferedInputStream(s.getInputStream(), 8192);
            OutputStream out = s.getOutputStream();
            if (!socks) {
                out.write(Http1.ascii("CONNECT " + DESTINATION + ":" + TUNNEL_PORT + " HTTP/1.1\r\nHost: " + DESTINATION
                        + ":" + TUNNEL_PORT + "\r\n" + proxyAuthorization(session) + "\r\n"));
                out.flush();
                Http1.Head head = Http1.readHead(in);
                if (head.status() != 200) {
                    throw new StatusException(statusKind("connect_", head));
                }
            } else {
                socksConnect(in, out);
            }
            gauges.tunnelOpened();
            counted = true;
            out.write(Http1.ascii("B " + profile.requestBytes() + " " + profile.responseBytes() + "\n"));
            out.write(new byte[profile.requestBytes()]);
            out.flush();
            String r = Http1.readLine(in);
            if (!r.startsWith("R ")) {
                throw new Http1.ProtocolException("no round trip line in the tunnel");
            }
            long rtt = Long.parseLong(r.substring(2).strip());
            in.skipNBytes(profile.responseBytes());
            stats.ok(ticker.read() - scheduled, rtt);
            if (!profile.tunnelDuration().isZero()) {
                Thread.sleep(profile.tunnelDuration());
            }
        } catch (StatusException e) {
            stats.error(e.getMessage());
        } catch (IOException | NumberFormatException e) {
            stats.error(e instanceof IOException io ? kind(io) : "protocol");
        } finally {
            if (counted) {
                gauges.tunnelClosed();
            }
            if (s != null) {
                closeGateway(s);
            }
        }
    }

    private Socket openGateway() throws IOException {
        Socket s = connect(target.http());
        if (target.tls() == null) {
            return s;
        }
        try {
            SSLSocket ssl = (SSLSocket) target.tls()
                    .createSocket(
                            s, target.http().getHostString(), target.http().getPort(), true);
            ssl.setSoTimeout(timeoutMillis);
            ssl.startHandshake();
            return ssl;
        } catch (IOException e) {
            closeGateway(s);
            throw e;
        }
    }

    private Socket connect(InetSocketAddress a) throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.setSoTimeout(timeoutMillis);
            s.connect(a, timeoutMillis);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        gauges.connectionOpened();
        return s;
    }

    private void closeGateway(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        gauges.connectionClosed();
    }

    private Socket openSocks(int session) throws IOException {
        if (target.socks() == null) {
            throw new StatusException("socks_listener_off");
        }
        Socket s = connect(target.socks());
        try {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            String u = user(session);
            out.write(Socks5Codec.greeting(u == null ? Socks5Codec.METHOD_NONE : Socks5Codec.METHOD_USER_PASSWORD));
            out.flush();
            byte[] method = in.readNBytes(2);
            if (method.length < 2) {
                throw new EOFException();
            }
            if (method[1] == Socks5Codec.METHOD_USER_PASSWORD && u != null) {
                out.write(Socks5Codec.authRequest(
                        u.getBytes(StandardCharsets.UTF_8), target.secret().getBytes(StandardCharsets.UTF_8)));
                out.flush();
                byte[] status = in.readNBytes(2);
                if (status.length < 2 || status[1] != Socks5Codec.AUTH_SUCCEEDED) {
                    throw new StatusException("socks_auth");
                }
            } else if (method[1] != Socks5Codec.METHOD_NONE) {
                throw new StatusException("socks_method");
            }
            return s;
        } catch (IOException e) {
            closeGateway(s);
            throw e;
        }
    }

    private static void socksConnect(InputStream in, OutputStream out) throws IOException {
        out.write(Socks5Codec.request(
                Socks5Codec.CMD_CONNECT, Socks5Codec.ATYP_IPV4, new byte[] {127, 0, 0, 1}, TUNNEL_PORT));
        out.flush();
        Socks5Codec.Message reply = Socks5Codec.read(in, Socks5Codec::decodeMessage);
        if (reply.code() != Socks5Codec.Reply.SUCCEEDED.code()) {
            throw new StatusException("socks_reply_" + (byte) reply.code());
        }
        if (!reply.whole()) {
            throw new Http1.ProtocolException("bad SOCKS5 address type");
        }
    }

    static String statusKind(String prefix, Http1.Head head) {
        String reason = head.field("x-proxypool-error");
        return prefix
                + head.status()
                + (reason == null || reason.isBlank()
                        ? ""
                        : "_" + reason.strip().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_"));
    }

    static String kind(IOException e) {
        return e instanceof StatusException ? e.getMessage() : GatewayClient.kind(e);
    }

    @Override
    public void close() {
        HttpConnection c;
        while ((c = idle.pollFirst()) != null) {
            c.close();
        }
    }

    /** An answer that is not a success; its message is the error kind. */
    static final class StatusException extends IOException {
        StatusException(String kind) {
            super(kind);
        }
    }

    /** One keep-alive client connection and how many requests it carried. */
    private final class HttpConnection {
        final Socket socket;
        final InputStream in;
        final OutputStream out;
        int uses;
        boolean reusable = true;

        HttpConnection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            this.out = socket.getOutputStream();
        }

        /** One GET; the upstream's reported round trip in microseconds (-1 when it did not say). */
        long request(int session) throws IOException {
            uses++;
            out.write(Http1.ascii("GET http://" + DESTINATION + "/bench?r=" + profile.responseBytes()
                    + " HTTP/1.1\r\nHost: " + DESTINATION + "\r\n" + proxyAuthorization(session)
                    + (pad.isEmpty() ? "" : "X-Pad: " + pad + "\r\n") + "\r\n"));
            out.flush();
            Http1.Head head = Http1.readHead(in);
            reusable = Http1.skipBody(head, in) && !head.closes();
            if (head.status() >= 400) {
                throw new StatusException(statusKind("http_", head));
            }
            String rtt = head.field(SimUpstream.RTT_HEADER.toLowerCase(Locale.ROOT));
            try {
                return rtt == null ? -1 : Long.parseLong(rtt.strip());
            } catch (NumberFormatException e) {
                return -1;
            }
        }

        void close() {
            closeGateway(socket);
        }
    }
}
