package dev.proxypool.testkit;

import dev.proxypool.core.wire.Socks5Codec;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;

/** Byte reading shared by the SOCKS fakes. */
final class SocksIo {

    private SocksIo() {}

    static int readByte(InputStream in) throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("end of stream inside a SOCKS request");
        }
        return b;
    }

    static byte[] readExactly(InputStream in, int n) throws IOException {
        byte[] b = in.readNBytes(n);
        if (b.length != n) {
            throw new EOFException("end of stream inside a SOCKS request");
        }
        return b;
    }

    /** A NUL-terminated string of at most 255 bytes (SOCKS4 USERID, SOCKS4a host name). */
    static String readNulTerminated(InputStream in) throws IOException {
        byte[] buf = new byte[256];
        int n = 0;
        for (int b = readByte(in); b != 0; b = readByte(in)) {
            if (n == buf.length) {
                throw new IOException("NUL-terminated field longer than 255 bytes");
            }
            buf[n++] = (byte) b;
        }
        return new String(buf, 0, n, StandardCharsets.UTF_8);
    }

    /** Why a target connect failed, in SOCKS5 reply codes (SOCKS4 has only one failure code). */
    static int socks5Reply(IOException e) {
        return switch (e) {
            case ConnectException _ -> Socks5Codec.Reply.CONNECTION_REFUSED.code();
            case NoRouteToHostException _, UnknownHostException _, SocketTimeoutException _ ->
                Socks5Codec.Reply.HOST_UNREACHABLE.code();
            default -> Socks5Codec.Reply.GENERAL_FAILURE.code();
        };
    }
}
