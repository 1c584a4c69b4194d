package dev.proxypool.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/**
 * Pumps bytes both ways between a client connection and an outbound socket until both directions
 * ended: client to target on the calling thread, target to client on a virtual thread. An end of
 * stream in one direction is passed on as a half-close; an error in either closes both.
 */
final class Relay {

    private Relay() {}

    static void run(FakeServer.Connection client, Socket target) throws IOException {
        InputStream fromTarget = target.getInputStream();
        OutputStream toTarget = target.getOutputStream();
        Thread down = Thread.ofVirtual().name("relay-down").start(() -> {
            try {
                pump(fromTarget, client.out());
                client.shutdownOutput();
            } catch (InjectedFault fault) {
                if (fault.kind() == InjectedFault.Kind.RESET) {
                    FakeServer.closeQuietly(target);
                }
                // half-closed: keep reading the client until it closes
            } catch (IOException e) {
                FakeServer.closeQuietly(client.raw());
                FakeServer.closeQuietly(target);
            }
        });
        try {
            pump(client.in(), toTarget);
            target.shutdownOutput();
        } catch (IOException e) {
            FakeServer.closeQuietly(target);
            throw e;
        } finally {
            try {
                down.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void pump(InputStream in, OutputStream out) throws IOException {
        byte[] buf = new byte[16384];
        for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
            out.write(buf, 0, n);
            out.flush();
        }
    }
}
