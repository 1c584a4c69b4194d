package dev.proxypool.server.soak;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive client connection to the gateway sending the same absolute-form {@code GET}
 * (plain HTTP through the pool's proxies). A failed exchange closes the connection; the next
 * {@link #exchange()} opens a fresh one. Not thread-safe: one per load thread.
 */
final class GatewayClient implements AutoCloseable {

    private static final int TIMEOUT_MS = 15_000;

    private final InetSocketAddress gateway;
    private final byte[] request;
    private final int expectedBody;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    GatewayClient(InetSocketAddress gateway, String originAuthority, int bodyBytes, String proxyAuthorization) {
        this.gateway = gateway;
        this.expectedBody = bodyBytes;
        this.request = ("GET http://" + originAuthority + "/bytes?n=" + bodyBytes + " HTTP/1.1\r\n"
                        + "Host: " + originAuthority + "\r\n"
                        + "Proxy-Authorization: " + proxyAuthorization + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    /** One request; the status ({@code 200} with the whole body is success) or -1 on an I/O failure. */
    int exchange() {
        try {
            if (socket == null) {
                socket = new Socket();
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(TIMEOUT_MS);
                socket.connect(gateway, TIMEOUT_MS);
                in = new BufferedInputStream(socket.getInputStream(), 8192);
                out = socket.getOutputStream();
            }
            out.write(request);
            out.flush();
            return readResponse();
        } catch (IOException e) {
            close();
            return -1;
        }
    }

    private int readResponse() throws IOException {
        String status = line();
        if (status == null || !status.startsWith("HTTP/1.")) {
            throw new IOException("no status line: " + status);
        }
        int code = Integer.parseInt(status.substring(9, 12));
        long length = -1;
        boolean close = false;
        for (int i = 0; i < 200; i++) {
            String h = line();
            if (h == null) {
                throw new IOException("eof in headers");
            }
            if (h.isEmpty()) {
                break;
            }
            String lower = h.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(lower.substring(15).trim());
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                close = true;
            }
        }
        if (length < 0) {
            throw new IOException("response without Content-Length");
        }
        in.skipNBytes(length); // throws EOFException on a short body
        if (close) {
            close();
        }
        return code == 200 && length != expectedBody ? -2 : code;
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder(64);
        for (int i = 0; i < 8192; i++) {
            int b = in.read();
            if (b < 0) {
                return sb.isEmpty() ? null : sb.toString();
            }
            if (b == '\n') {
                int len = sb.length();
                return len > 0 && sb.charAt(len - 1) == '\r' ? sb.substring(0, len - 1) : sb.toString();
            }
            sb.append((char) b);
        }
        throw new IOException("header line too long");
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
