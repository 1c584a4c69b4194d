package dev.proxypool.server.gateway.staticupstream;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.server.gateway.UpstreamDialException;
import dev.proxypool.server.gateway.UpstreamLink;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The minimal dialer to an HTTP proxy: a plain TCP connection for absolute-form forwarding, or a
 * {@code CONNECT host:port} handshake that yields a tunnel. Not the product's connector (see package-info).
 */
final class HttpProxyConnector {

    private static final int MAX_HEAD = 16 * 1024;

    private HttpProxyConnector() {}

    static Socket dial(StaticUpstream proxy, int connectTimeoutMillis) throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(proxy.host(), proxy.port()), connectTimeoutMillis);
            return s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /** Opens a CONNECT tunnel to {@code host:port} through {@code proxy}. */
    static UpstreamLink tunnel(StaticUpstream proxy, String host, int port, int connectTimeoutMillis)
            throws IOException {
        Socket s = dial(proxy, connectTimeoutMillis);
        try {
            s.setSoTimeout(connectTimeoutMillis);
            String authority = (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
            StringBuilder req = new StringBuilder(128)
                    .append("CONNECT ")
                    .append(authority)
                    .append(" HTTP/1.1\r\nHost: ")
                    .append(authority)
                    .append("\r\n");
            String auth = proxy.authorization();
            if (auth != null) {
                req.append("Proxy-Authorization: ").append(auth).append("\r\n");
            }
            req.append("\r\n");
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = new BufferedInputStream(s.getInputStream(), 8192);
            int status = readStatus(in);
            if (status == 407) {
                throw new UpstreamDialException(
                        FailureKind.PROXY_AUTH_REJECTED, "upstream proxy refused our credentials");
            }
            if (status < 200 || status > 299) {
                throw new UpstreamDialException(
                        FailureKind.UPSTREAM_UNREACHABLE, "upstream proxy answered " + status + " to CONNECT");
            }
            s.setSoTimeout(0);
            return new UpstreamLink(s, in, out, UpstreamLink.Mode.TUNNEL, null, null);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** Reads a response head byte by byte (once per tunnel) and returns its status code. */
    private static int readStatus(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder(128);
        int b;
        while ((b = in.read()) >= 0) {
            head.append((char) b);
            int n = head.length();
            if (n >= 4 && head.charAt(n - 1) == '\n' && head.charAt(n - 3) == '\n') {
                break;
            }
            if (n > MAX_HEAD) {
                throw new UpstreamDialException(FailureKind.PROTOCOL_ERROR, "CONNECT response head too large");
            }
        }
        if (b < 0) {
            throw new UpstreamDialException(FailureKind.CONNECTION_RESET, "upstream proxy closed during CONNECT");
        }
        if (head.length() < 12 || !head.substring(0, 7).equals("HTTP/1.")) {
            throw new UpstreamDialException(FailureKind.PROTOCOL_ERROR, "malformed CONNECT response");
        }
        try {
            return Integer.parseInt(head.substring(9, 12));
        } catch (NumberFormatException e) {
            throw new UpstreamDialException(FailureKind.PROTOCOL_ERROR, "malformed CONNECT status");
        }
    }
}
