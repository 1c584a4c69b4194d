package dev.proxypool.server.gateway;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A raw-socket HTTP/1.1 client for wire tests: sends exact bytes, parses responses by hand. */
final class RawClient implements AutoCloseable {

    /** A parsed response: status line, headers (lower-case names, last value wins), body. */
    record Response(String statusLine, Map<String, String> headers, byte[] body) {
        int status() {
            return Integer.parseInt(statusLine.substring(9, 12));
        }

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        String text() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }
    }

    final Socket socket;
    final InputStream in;
    final OutputStream out;

    RawClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    RawClient send(String raw) throws IOException {
        out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return this;
    }

    /** Reads one response; {@code head} true means no body is expected (HEAD, CONNECT 200). */
    Response read(boolean noBody) throws IOException {
        String headText = RawOrigin.readHead(in);
        if (headText == null) {
            throw new IOException("connection closed before a response");
        }
        String[] lines = headText.split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(
                    lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).trim());
        }
        Response r = new Response(lines[0], headers, new byte[0]);
        int status = r.status();
        if (noBody || status == 204 || status == 304 || status < 200) {
            return r;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        String te = headers.get("transfer-encoding");
        String cl = headers.get("content-length");
        if (te != null && te.toLowerCase(Locale.ROOT).endsWith("chunked")) {
            while (true) {
                String sizeLine = line();
                int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
                if (size == 0) {
                    String t;
                    StringBuilder trailers = new StringBuilder();
                    while (!(t = line()).isEmpty()) {
                        trailers.append(t).append("\r\n");
                    }
                    headers.put("x-test-trailers", trailers.toString());
                    break;
                }
                body.write(in.readNBytes(size));
                line();
            }
        } else if (cl != null) {
            body.write(in.readNBytes(Integer.parseInt(cl)));
        } else {
            body.write(in.readAllBytes());
        }
        return new Response(r.statusLine(), headers, body.toByteArray());
    }

    Response read() throws IOException {
        return read(false);
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }

    /** True when the server closed the connection (EOF or reset) within the socket timeout. */
    boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset counts as closed
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
