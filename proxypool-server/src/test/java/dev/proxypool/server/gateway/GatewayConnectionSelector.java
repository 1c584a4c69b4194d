package dev.proxypool.server.gateway;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Set;

/**
 * The measured alternative (GATEWAY-DESIGN.md option a): the same {@link Gateway} protocol served
 * on a named Helidon listener through the connection SPI, the way Helidon's own proxy-protocol
 * support sits below HTTP/1. It claims every connection of its socket (use it alone, with
 * {@code protocolsDiscoverServices(false)}). Reads go through Helidon's {@link DataReader}, writes
 * straight to the {@link HelidonSocket}. Limits: no read timeouts or half-close (Helidon's socket
 * abstraction exposes neither), so idleness is left to the listener's idle-connection timer.
 */
public final class GatewayConnectionSelector implements ServerConnectionSelector {

    private final Gateway gateway;

    public GatewayConnectionSelector(Gateway gateway) {
        this.gateway = gateway;
    }

    @Override
    public int bytesToIdentifyConnection() {
        return 0;
    }

    @Override
    public Support supports(BufferData data) {
        return Support.SUPPORTED;
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return Set.of();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        return new Connection(gateway, ctx);
    }

    private static final class Connection implements ServerConnection {
        private final Gateway gateway;
        private final HelidonChannel channel;

        Connection(Gateway gateway, ConnectionContext ctx) {
            this.gateway = gateway;
            this.channel = new HelidonChannel(ctx);
        }

        @Override
        public void handle(Limit limit) {
            gateway.serve(channel);
        }

        @Override
        public Duration idleTime() {
            return Duration.ZERO; // the gateway enforces its own timeouts where it can
        }

        @Override
        public void close(boolean interrupt) {
            channel.close();
        }
    }

    private static final class HelidonChannel implements ClientChannel {
        private final ConnectionContext ctx;
        private final HelidonSocket socket;
        private final InputStream in;
        private final OutputStream out;

        HelidonChannel(ConnectionContext ctx) {
            this.ctx = ctx;
            this.socket = ctx.serverSocket();
            DataReader reader = ctx.dataReader();
            this.in = new InputStream() {
                @Override
                public int read() throws IOException {
                    byte[] one = new byte[1];
                    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    try {
                        if (reader.available() == 0) {
                            reader.pullData();
                        }
                        int n = Math.min(len, reader.available());
                        reader.readBuffer(n).read(b, off, n);
                        return n;
                    } catch (DataReader.InsufficientDataAvailableException e) {
                        return -1;
                    } catch (UncheckedIOException e) {
                        throw e.getCause();
                    } catch (RuntimeException e) {
                        throw new IOException(e);
                    }
                }
            };
            this.out = new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    try {
                        socket.write(BufferData.create(b, off, len));
                    } catch (UncheckedIOException e) {
                        throw e.getCause();
                    } catch (RuntimeException e) {
                        throw new IOException(e);
                    }
                }
            };
        }

        @Override
        public InputStream input() {
            return in;
        }

        @Override
        public OutputStream output() {
            return out;
        }

        @Override
        public void readTimeout(int millis) {
            // not exposed by Helidon's socket abstraction
        }

        @Override
        public void shutdownOutput() {
            close(); // half-close is not exposed: the tunnel ends with a full close instead
        }

        @Override
        public void closeGracefully() {
            close();
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (RuntimeException ignored) {
                // already closed
            }
        }

        @Override
        public String peer() {
            return ctx.remotePeer().host();
        }
    }
}
