package dev.proxypool.cli.demo;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;

/**
 * A SOCKS5 proxy for the demo (RFC 1928): no authentication, {@code CONNECT} only, to IPv4, IPv6
 * and domain-name targets. A client that offers no "no authentication" method gets {@code 0xFF};
 * other commands get "command not supported"; a failed connect gets the matching reply code
 * (refused, host unreachable, general failure). A granted connection becomes a byte tunnel.
 */
public final class DemoSocksProxy extends LoopbackService {

    private static final int VERSION = 5;
    private static final int NO_AUTH = 0;
    private static final int NO_ACCEPTABLE_METHOD = 0xFF;
    private static final int CMD_CONNECT = 1;
    private static final int ATYP_IPV4 = 1;
    private static final int ATYP_DOMAIN = 3;
    private static final int ATYP_IPV6 = 4;
    private static final int REP_OK = 0;
    private static final int REP_FAILURE = 1;
    private static final int REP_HOST_UNREACHABLE = 4;
    private static final int REP_REFUSED = 5;
    private static final int REP_COMMAND_NOT_SUPPORTED = 7;
    private static final int REP_ADDRESS_NOT_SUPPORTED = 8;
    private static final int CONNECT_TIMEOUT_MS = 5_000;

    private DemoSocksProxy() {
        super("socks5-proxy");
    }

    /** Starts listening. */
    public static DemoSocksProxy open() {
        return new DemoSocksProxy();
    }

    @Override
    void handle(Socket client) throws IOException {
        BufferedInputStream buffered = new BufferedInputStream(client.getInputStream());
        DataInputStream in = new DataInputStream(buffered);
        OutputStream out = client.getOutputStream();
        if (in.readUnsignedByte() != VERSION) {
            return;
        }
        byte[] methods = new byte[in.readUnsignedByte()];
        in.readFully(methods);
        boolean noAuthOffered = false;
        for (byte m : methods) {
            noAuthOffered |= m == NO_AUTH;
        }
        out.write(new byte[] {VERSION, (byte) (noAuthOffered ? NO_AUTH : NO_ACCEPTABLE_METHOD)});
        out.flush();
        if (!noAuthOffered) {
            return;
        }
        int version = in.readUnsignedByte();
        int command = in.readUnsignedByte();
        in.readUnsignedByte(); // reserved
        int type = in.readUnsignedByte();
        String host;
        switch (type) {
            case ATYP_IPV4 -> host = address(in, 4);
            case ATYP_IPV6 -> host = address(in, 16);
            case ATYP_DOMAIN -> {
                byte[] name = new byte[in.readUnsignedByte()];
                in.readFully(name);
                host = new String(name, StandardCharsets.US_ASCII);
            }
            default -> {
                reply(out, REP_ADDRESS_NOT_SUPPORTED);
                return;
            }
        }
        int port = in.readUnsignedShort();
        if (version != VERSION || command != CMD_CONNECT) {
            reply(out, REP_COMMAND_NOT_SUPPORTED);
            return;
        }
        try (Socket target = new Socket()) {
            try {
                target.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
            } catch (ConnectException e) {
                reply(out, REP_REFUSED);
                return;
            } catch (UnknownHostException | NoRouteToHostException e) {
                reply(out, REP_HOST_UNREACHABLE);
                return;
            } catch (IOException e) {
                reply(out, REP_FAILURE);
                return;
            }
            reply(out, REP_OK);
            Splice.both(client, buffered, target);
        }
    }

    private static String address(DataInputStream in, int length) throws IOException {
        byte[] raw = new byte[length];
        in.readFully(raw);
        return InetAddress.getByAddress(raw).getHostAddress();
    }

    /** A reply with an all-zero IPv4 bound address (the client does not need it). */
    private static void reply(OutputStream out, int code) throws IOException {
        out.write(new byte[] {VERSION, (byte) code, 0, ATYP_IPV4, 0, 0, 0, 0, 0, 0});
        out.flush();
    }
}
