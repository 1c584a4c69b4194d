package dev.proxypool.server.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * Sends raw bytes on a fresh loopback connection, half-closes, and reads whatever comes back until
 * the server closes. A server that neither answers nor closes within the read timeout is a hang.
 */
final class WireClient {

    /** What came back: the bytes, and whether the connection ended in a reset rather than a FIN. */
    record Answer(byte[] bytes, boolean reset) {
        String text() {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }

        /** The status of the first response, or -1 when nothing (or no status line) came back. */
        int status() {
            String t = text();
            if (!t.startsWith("HTTP/1.") || t.length() < 12 || t.charAt(8) != ' ') {
                return -1;
            }
            try {
                return Integer.parseInt(t.substring(9, 12));
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }

    private static final int MAX_ANSWER = 1 << 20;

    private WireClient() {}

    static Answer exchange(int port, byte[] request, int readTimeoutMillis) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
            s.setSoTimeout(readTimeoutMillis);
            try {
                s.getOutputStream().write(request);
                s.getOutputStream().flush();
                s.shutdownOutput();
            } catch (SocketException closedEarly) {
                // the server answered and closed before taking every byte: read what it said
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[8192];
            try {
                int n;
                while (out.size() < MAX_ANSWER && (n = in.read(buf)) >= 0) {
                    out.write(buf, 0, n);
                }
            } catch (SocketTimeoutException e) {
                throw new SocketTimeoutException(
                        "no answer and no close within " + readTimeoutMillis + " ms (" + out.size() + " bytes read)");
            } catch (SocketException reset) {
                return new Answer(out.toByteArray(), true);
            }
            return new Answer(out.toByteArray(), false);
        }
    }
}
