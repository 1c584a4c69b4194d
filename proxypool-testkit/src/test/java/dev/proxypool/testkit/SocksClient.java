package dev.proxypool.testkit;

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
        out.write(5);
        out.write(methods.length);
        for (int m : methods) {
            out.write(m);
        }
        out.flush();
        byte[] reply = new byte[2];
        new DataInputStream(s.getInputStream()).readFully(reply);
        return reply[1] & 0xFF;
    }

    /** RFC 1929 sub-negotiation; returns the status (0 = success). */
    static int socks5Auth(Socket s, String user, String pass) throws IOException {
        byte[] u = user.getBytes(StandardCharsets.UTF_8);
        byte[] p = pass.getBytes(StandardCharsets.UTF_8);
        OutputStream out = s.getOutputStream();
        out.write(1);
        out.write(u.length);
        out.write(u);
        out.write(p.length);
        out.write(p);
        out.flush();
        byte[] reply = new byte[2];
        new DataInputStream(s.getInputStream()).readFully(reply);
        return reply[1] & 0xFF;
    }

    /** A SOCKS5 CONNECT with address type {@code atyp} (1, 3 or 4); returns the reply code. */
    static int socks5Connect(Socket s, int atyp, String host, int port) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(new byte[] {5, 1, 0, (byte) atyp});
        if (atyp == 3) {
            byte[] name = host.getBytes(StandardCharsets.US_ASCII);
            out.write(name.length);
            out.write(name);
        } else {
            out.write(InetAddress.getByName(host).getAddress());
        }
        out.write(new byte[] {(byte) (port >> 8), (byte) port});
        out.flush();
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] head = new byte[4];
        in.readFully(head);
        int addrLen = switch (head[3]) {
            case 1 -> 4;
            case 4 -> 16;
            case 3 -> in.readUnsignedByte();
            default -> throw new IOException("bad ATYP in reply: " + head[3]);
        };
        in.readFully(new byte[addrLen + 2]);
        return head[1] & 0xFF;
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
