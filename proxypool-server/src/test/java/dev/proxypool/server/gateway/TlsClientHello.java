package dev.proxypool.server.gateway;

import java.nio.ByteBuffer;
import java.util.Arrays;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

/** The bytes of a real TLS ClientHello, for clients that send it a byte at a time (handshake deadline tests). */
public final class TlsClientHello {

    private TlsClientHello() {}

    /** The first flight of a client-mode engine of {@code ctx}: one ClientHello record. */
    public static byte[] of(SSLContext ctx) {
        try {
            SSLEngine e = ctx.createSSLEngine("localhost", 443);
            e.setUseClientMode(true);
            ByteBuffer out = ByteBuffer.allocate(e.getSession().getPacketBufferSize());
            e.wrap(ByteBuffer.allocate(0), out);
            return Arrays.copyOf(out.array(), out.position());
        } catch (SSLException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
