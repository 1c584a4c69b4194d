package dev.proxypool.server.gateway;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A loopback port with nothing listening (bound, then released). */
final class FreePort {

    private FreePort() {}

    static int closed() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
