package dev.proxypool.testkit;

import dev.proxypool.core.wire.Socks5Codec;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Hand-rolled SOCKS client steps for wire tests of the fakes. */
final class SocksClient {

    private SocksClient() {}

    /** Sends a SOCKS4 CONNECT (4a when {@code host} is not an IPv4 literal); returns the reply code. */
    static int socks4(Socket s, String host, int port, String userId) throws IOException {
        OutputStream out = s.getOutputStream();
        byte[] user = userId.getBytes(StandardCharsets.UTF_8);
        boolean literal = host.matches("\\d+\\.\\d+\\.\\d+\\.\\d+");
        byte[] ip = literal ? InetAddress.getByName(host).getAddress() : new byte[] {0, 0, 0, 1};
        out.write(new byte[] {4, 1, (byte) (port >> 8), (byte) port});
        out.write(ip);
        out.write(user);
        out.write(0);
        if (!literal) {
            out.write(host.getBytes(StandardCharsets.US_ASCII));
            out.write(0);
        }
        out.flush();
        byte[] reply = new byte[8];
        new DataInputStream(s.getInputStream()).readFully(reply);
        return reply[1] & 0xFF;
    }

    /** Sends a SOCKS5 greeting offering {@code methods}; returns the chosen method. */
    static int socks5Greeting(Socket s, int... methods) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(Socks5Codec.greeting(methods));
        out.flush();
        return twoByteReply(s);
    }

    /** RFC 1929 sub-negotiation; returns the status (0 = success). */
    static int socks5Auth(Socket s, String user, String pass) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(
                Socks5Codec.authRequest(user.getBytes(StandardCharsets.UTF_8), pass.getBytes(StandardCharsets.UTF_8)));
        out.flush();
        return twoByteReply(s);
    }

    /** A SOCKS5 CONNECT with address type {@code atyp} (1, 3 or 4); returns the reply code. */
    static int socks5Connect(Socket s, int atyp, String host, int port) throws IOException {
        OutputStream out = s.getOutputStream();
        byte[] address = atyp == Socks5Codec.ATYP_DOMAIN
                ? host.getBytes(StandardCharsets.US_ASCII)
                : InetAddress.getByName(host).getAddress();
        out.write(Socks5Codec.request(Socks5Codec.CMD_CONNECT, atyp, address, port));
        out.flush();
        Socks5Codec.Message reply = Socks5Codec.read(s.getInputStream(), Socks5Codec::decodeMessage);
        if (!reply.whole()) {
            throw new IOException("bad ATYP in reply: " + reply.addressType());
        }
        return reply.code();
    }

    /** The second byte of a two-byte reply (the method choice, the RFC 1929 status). */
    private static int twoByteReply(Socket s) throws IOException {
        byte[] reply = new byte[2];
        new DataInputStream(s.getInputStream()).readFully(reply);
        return reply[1] & 0xFF;
    }

    static RawHttp.Response echo(Socket s, FakeOrigin origin) throws IOException {
        InputStream in = s.getInputStream();
        return RawHttp.exchange(
                in,
                s.getOutputStream(),
                "GET /echo HTTP/1.1\r\nHost: " + origin.authority() + "\r\nConnection: close\r\n\r\n",
                false);
    }
}
