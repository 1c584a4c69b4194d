package dev.proxypool.testkit;

import dev.proxypool.core.wire.ChunkedBody;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A raw-socket HTTP/1.1 client for wire tests: writes exactly the request given, reads one
 * response by its framing (Content-Length, chunked — decoded — or until close). For tests that must
 * see the bytes a real client library would hide or refuse to send.
 */
public final class RawHttp {

    private RawHttp() {}

    /**
     * A response.
     *
     * @param status the status code
     * @param fields header fields in order, as {@code {name, value}} pairs
     * @param body   the body, de-chunked
     */
    public record Response(int status, List<String[]> fields, byte[] body) {

        public Response {
            fields = Collections.unmodifiableList(new ArrayList<>(fields));
        }

        /** First value of a header, case-insensitive; null when absent. */
        public String header(String name) {
            for (String[] f : fields) {
                if (f[0].equalsIgnoreCase(name)) {
                    return f[1];
                }
            }
            return null;
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The body parsed as an echo response. */
        public EchoResponse echo() {
            return EchoResponse.parse(bodyText());
        }
    }

    /** Sends {@code GET target} with {@code Host: host} on the socket and reads the response. */
    public static Response get(Socket socket, String host, String target) throws IOException {
        return exchange(
                socket.getInputStream(),
                socket.getOutputStream(),
                "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n",
                false);
    }

    /**
     * Writes {@code request} verbatim and reads one response from {@code in}. Pass the same
     * buffered input for every exchange on one connection (a response may be read ahead).
     *
     * @param head true when the request was {@code HEAD} (no body follows)
     */
    public static Response exchange(InputStream in, OutputStream out, String request, boolean head) throws IOException {
        out.write(request.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return read(in, head);
    }

    /** Reads one response; {@code in} should be buffered for speed ({@link #buffered(Socket)}). */
    public static Response read(InputStream in, boolean head) throws IOException {
        HttpHead h = HttpHead.read(in);
        if (h == null) {
            throw new EOFException("connection closed before a response");
        }
        int status = h.status();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (!head && status / 100 != 1 && status != 204 && status != 304) {
            if (h.chunked()) {
                dechunk(in, body);
            } else if (h.contentLength() >= 0) {
                HttpBody.copyExactly(in, body, h.contentLength());
            } else {
                in.transferTo(body);
            }
        }
        return new Response(status, h.fields(), body.toByteArray());
    }

    /** A buffered input over the socket, for several {@link #read} calls on one connection. */
    public static InputStream buffered(Socket socket) throws IOException {
        return new BufferedInputStream(socket.getInputStream());
    }

    private static void dechunk(InputStream in, OutputStream out) throws IOException {
        ChunkedBody.copyData(in, out, Long.MAX_VALUE, HttpHead.MAX_LINE + 1, HttpHead.MAX_FIELDS);
    }
}
