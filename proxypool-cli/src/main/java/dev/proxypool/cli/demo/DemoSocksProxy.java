package dev.proxypool.cli.demo;

import dev.proxypool.core.wire.Socks5Codec;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.UnknownHostException;

/**
 * A SOCKS5 proxy for the demo (RFC 1928, with the shared codec {@link Socks5Codec}): no authentication, {@code CONNECT} only, to IPv4, IPv6
 * and domain-name targets. A client that offers no "no authentication" method gets {@code 0xFF};
 * other commands get "command not supported"; a failed connect gets the matching reply code
 * (refused, host unreachable, general failure). A granted connection becomes a byte tunnel.
 */
public final class DemoSocksProxy extends LoopbackService {

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
        BufferedInputStream in = new BufferedInputStream(client.getInputStream());
        OutputStream out = client.getOutputStream();
        Socks5Codec.Greeting greeting = Socks5Codec.read(in, Socks5Codec::decodeGreeting);
        if (greeting.version() != Socks5Codec.VERSION) {
            return;
        }
        boolean noAuthOffered = greeting.offers(Socks5Codec.METHOD_NONE);
        out.write(Socks5Codec.methodChoice(noAuthOffered ? Socks5Codec.METHOD_NONE : Socks5Codec.METHOD_NO_ACCEPTABLE));
        out.flush();
        if (!noAuthOffered) {
            return;
        }
        Socks5Codec.Message request = Socks5Codec.read(in, Socks5Codec::decodeMessage);
        if (request.version() == Socks5Codec.VERSION && !request.whole()) {
            reply(out, Socks5Codec.Reply.ADDRESS_TYPE_NOT_SUPPORTED);
            return;
        }
        if (request.version() != Socks5Codec.VERSION || request.code() != Socks5Codec.CMD_CONNECT) {
            reply(out, Socks5Codec.Reply.COMMAND_NOT_SUPPORTED);
            return;
        }
        try (Socket target = new Socket()) {
            try {
                target.connect(new InetSocketAddress(request.host(), request.port()), CONNECT_TIMEOUT_MS);
            } catch (ConnectException e) {
                reply(out, Socks5Codec.Reply.CONNECTION_REFUSED);
                return;
            } catch (UnknownHostException | NoRouteToHostException e) {
                reply(out, Socks5Codec.Reply.HOST_UNREACHABLE);
                return;
            } catch (IOException e) {
                reply(out, Socks5Codec.Reply.GENERAL_FAILURE);
                return;
            }
            reply(out, Socks5Codec.Reply.SUCCEEDED);
            Splice.both(client, in, target);
        }
    }

    /** A reply with an all-zero IPv4 bound address (the client does not need it). */
    private static void reply(OutputStream out, Socks5Codec.Reply code) throws IOException {
        out.write(Socks5Codec.reply(code.code()));
        out.flush();
    }
}
