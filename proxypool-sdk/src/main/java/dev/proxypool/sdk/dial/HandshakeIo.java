package dev.proxypool.sdk.dial;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.time.Ticker;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Drives an {@link UpstreamHandshake} over a blocking socket under one deadline: writes its
 * output, reads, feeds it the bytes, until the tunnel is open. In exact mode reads never take more
 * than {@link UpstreamHandshake#wanted()}, so the socket is handed over with nothing of the tunnel
 * consumed (a head ended by bare line feeds with tunnel bytes right behind it is refused). In
 * buffered mode reads take whatever has arrived, in as few reads as the peer's segments allow, and
 * the bytes past the final reply are returned for the caller to serve before the socket's own
 * stream.
 */
final class HandshakeIo {

    private static final int BUFFER = 1024;
    private static final byte[] EMPTY = new byte[0];

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final Ticker ticker;
    private final long deadline;
    private final boolean buffered;

    /**
     * @param buffered read in large reads and keep what follows the reply ({@link #run})
     */
    HandshakeIo(Socket socket, Ticker ticker, long deadline, boolean buffered) throws IOException {
        this.buffered = buffered;
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.ticker = ticker;
        this.deadline = deadline;
    }

    /**
     * Runs {@code handshake} until the tunnel is open.
     *
     * @return the bytes read past the final reply (the tunnel's first bytes; buffered mode only), or
     *         an empty array
     * @throws HandshakeRejected as the codec judged the reply
     * @throws IOException       a timeout, a reset, or the proxy closing mid-handshake
     */
    byte[] run(UpstreamHandshake handshake) throws IOException {
        byte[] buf = new byte[BUFFER];
        ByteBuffer view = ByteBuffer.wrap(buf);
        while (true) {
            byte[] message = handshake.output();
            if (message.length > 0) {
                out.write(message);
                out.flush();
                Arrays.fill(message, (byte) 0); // it may hold the credentials
            }
            int want = buffered ? buf.length : Math.min(buf.length, handshake.wanted());
            arm();
            int r = in.read(buf, 0, want);
            if (r < 0) {
                throw new EOFException("the proxy closed the connection mid-handshake");
            }
            view.clear().limit(r);
            if (handshake.input(view)) {
                if (!view.hasRemaining()) {
                    return EMPTY;
                }
                if (!buffered) {
                    throw new HandshakeRejected(
                            FailureKind.PROTOCOL_ERROR,
                            "reply head ended with bare line feeds and tunnel bytes followed it at once");
                }
                return Arrays.copyOfRange(buf, view.position(), r);
            }
        }
    }

    /** Sets the read timeout to the time left; a spent deadline is a timeout. */
    private void arm() throws IOException {
        long left = deadline - ticker.read();
        if (left <= 0) {
            throw new SocketTimeoutException("handshake deadline passed");
        }
        socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000)));
    }
}
