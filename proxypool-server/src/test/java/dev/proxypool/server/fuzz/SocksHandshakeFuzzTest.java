package dev.proxypool.server.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.server.gateway.Gateway;
import dev.proxypool.server.gateway.GatewayListener;
import dev.proxypool.server.gateway.ProxyAuthenticator;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.fuzz.FuzzRun;
import dev.proxypool.testkit.fuzz.FuzzRun.Outcome;
import dev.proxypool.testkit.fuzz.Mutator;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue #20: the SOCKS5 handshake gets 2,000 generated inputs over real connections to a running
 * SOCKS5 listener (mutated valid handshakes: every address type, with and without credentials,
 * with bytes behind the request; and raw noise). Every answer is a well-formed sequence of SOCKS
 * messages (method choice, login status, one reply with a defined code) followed by a close, or a
 * clean close; a successful reply only after the right password; and after the barrage no
 * connection or attempt is left open and a normal handshake still works.
 */
class SocksHandshakeFuzzTest {

    private static final Mutator MUTATOR = Mutator.of(
            1024,
            "\u0005",
            "\u0001",
            "\u0002",
            "\u0003",
            "\u0004",
            "\u0000",
            "\u00ff",
            "alice",
            "wonder",
            "localhost",
            "127.0.0.1");

    private static byte[] seed(SplittableRandom r, int originPort) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean login = r.nextInt(4) != 0;
        out.writeBytes(login ? new byte[] {5, 2, 0, 2} : new byte[] {5, 1, 0});
        if (login) {
            out.writeBytes(new byte[] {1, 5});
            out.writeBytes("alice".getBytes(StandardCharsets.US_ASCII));
            out.write(6);
            out.writeBytes("wonder".getBytes(StandardCharsets.US_ASCII));
        }
        out.writeBytes(new byte[] {5, (byte) (1 + r.nextInt(3)), 0});
        switch (r.nextInt(3)) {
            case 0 -> out.writeBytes(new byte[] {1, 127, 0, 0, 1});
            case 1 -> {
                out.write(4);
                byte[] six = new byte[16];
                six[15] = 1;
                out.writeBytes(six);
            }
            default -> {
                out.write(3);
                out.write(9);
                out.writeBytes("localhost".getBytes(StandardCharsets.US_ASCII));
            }
        }
        out.write(originPort >> 8);
        out.write(originPort & 0xFF);
        if (r.nextBoolean()) {
            out.writeBytes("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        return out.toByteArray();
    }

    static byte[] next(SplittableRandom r, int originPort) {
        if (r.nextInt(5) == 0) {
            byte[] noise = new byte[r.nextInt(64)];
            r.nextBytes(noise);
            if (noise.length > 0 && r.nextBoolean()) {
                noise[0] = 5;
            }
            return noise;
        }
        return MUTATOR.mutate(seed(r, originPort), r);
    }

    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aRunningSocksListenerAnswersEveryHandshakeWithAWellFormedReplyOrACleanClose() throws Throwable {
        try (FakeOrigin origin = FakeOrigin.start()) {
            LoopbackEngine engine = new LoopbackEngine(origin.port());
            Gateway gateway = Gateway.builder(engine)
                    .authenticator(ProxyAuthenticator.basic(Map.of("alice", "wonder")))
                    .build();
            GatewayListener http = GatewayListener.start(gateway, InetAddress.getLoopbackAddress(), 0);
            GatewayListener socks = GatewayListener.startSocks(http, InetAddress.getLoopbackAddress(), 0);
            try {
                FuzzRun run = FuzzRun.live("gateway.socks", 2_000);
                run.forEach((i, r) -> {
                    byte[] input = next(r, origin.port());
                    run.check(
                            i,
                            input,
                            () -> WireClient.exchange(socks.port(), input, 10_000),
                            answer -> verdict(input, answer.bytes()));
                });
                run.finish();
                run.require(
                        run.accepted() > run.inputs() / 50, "too few handshakes succeeded (" + run.accepted() + ")");
                run.require(run.rejected() > run.inputs() / 50, "too few handshakes refused (" + run.rejected() + ")");
                RequestHeadFuzzTest.awaitIdle(gateway, engine);
                WireClient.Answer after = WireClient.exchange(socks.port(), normal(origin.port()), 10_000);
                byte[] a = after.bytes();
                assertTrue(a.length >= 14, "a normal handshake after the barrage: " + Arrays.toString(a));
                assertEquals(0, a[5], "reply succeeded after the barrage: " + Arrays.toString(a));
                RequestHeadFuzzTest.awaitIdle(gateway, engine);
            } finally {
                socks.stop(Duration.ofSeconds(2));
                http.stop(Duration.ofSeconds(2));
            }
            Await.atMost(Duration.ofSeconds(5)).until("attempts completed", engine::inFlight, n -> n == 0);
        }
    }

    private static byte[] normal(int port) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {5, 1, 2, 1, 5});
        out.writeBytes("alice".getBytes(StandardCharsets.US_ASCII));
        out.write(6);
        out.writeBytes("wonder".getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(new byte[] {5, 1, 0, 1, 127, 0, 0, 1, (byte) (port >> 8), (byte) port});
        return out.toByteArray();
    }

    /** The answer must be the SOCKS messages the input called for, in order, then nothing or tunnel bytes. */
    static Outcome verdict(byte[] input, byte[] a) {
        if (a.length == 0) {
            return Outcome.refused("closed");
        }
        if (a[0] == 0) {
            assertEquals(4, input[0], "a SOCKS4 answer to a SOCKS4 client only");
            assertEquals(8, a.length, "SOCKS4 rejection then close");
            assertEquals(0x5B, a[1]);
            return Outcome.refused("socks4");
        }
        assertEquals(5, a[0], "method choice version: " + Arrays.toString(a));
        assertTrue(a.length >= 2, "a method choice has two bytes");
        int method = a[1] & 0xFF;
        if (method == 0xFF) {
            assertEquals(2, a.length, "no acceptable method, then close");
            return Outcome.refused("no_method");
        }
        assertEquals(2, method, "credentials are required: username/password is the only choice");
        int at = 2;
        if (a.length == at) {
            return Outcome.refused("closed_after_method");
        }
        assertTrue(a.length >= at + 2, "a login status has two bytes");
        assertEquals(1, a[at], "login status version");
        if (a[at + 1] != 0) {
            assertEquals(1, a[at + 1], "login failure status");
            assertEquals(at + 2, a.length, "close after a failed login");
            return Outcome.refused("login_failed");
        }
        String text = new String(input, StandardCharsets.ISO_8859_1);
        assertTrue(text.contains("alice") && text.contains("wonder"), "a login succeeded without the password");
        at += 2;
        if (a.length == at) {
            return Outcome.refused("closed_after_login");
        }
        assertTrue(a.length >= at + 10, "a reply has ten bytes: " + Arrays.toString(a));
        assertEquals(5, a[at], "reply version");
        int code = a[at + 1];
        assertTrue(code >= 0 && code <= 8, "defined reply code " + code);
        assertEquals(0, a[at + 2], "reserved byte");
        assertEquals(1, a[at + 3], "bound address type");
        if (code != 0) {
            assertEquals(at + 10, a.length, "close after a failure reply");
            return Outcome.refused("reply_" + code);
        }
        return Outcome.parsed("tunnel");
    }
}
