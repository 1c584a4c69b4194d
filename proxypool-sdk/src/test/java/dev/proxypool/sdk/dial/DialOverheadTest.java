package dev.proxypool.sdk.dial;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.FakeServer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Measures what a dial costs on loopback: connect + handshake + close through each fake, against
 * a direct TCP connect to the same origin, and prints the table (numbers go in the report and the
 * {@link UpstreamDialer} javadoc). The assertion is only a loose sanity bound: timing on two
 * shared cores is noisy.
 */
@Tag("slow")
class DialOverheadTest {

    private static final int WARMUP = 100;
    private static final int SAMPLES = 300;

    @Test
    void dialOverheadPerProtocol() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start()) {
            long[] direct = measure(() -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(origin.host(), origin.port()));
                }
            });
            StringBuilder table =
                    new StringBuilder("\ndial overhead on loopback (us): median p90 | median over direct\n");
            table.append(String.format("%-12s %7d %7d |%n", "direct", median(direct), p90(direct)));
            UpstreamDialer dialer = ProxyKind.dialer();
            try (FakeServer fake = ProxyKind.HTTP.start()) {
                // a minimal client: one write, one read, no validation: what the dialer's care costs on top
                byte[] connect =
                        ("CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
                long[] raw = measure(() -> {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress(fake.host(), fake.port()));
                        s.getOutputStream().write(connect);
                        s.getInputStream().read(new byte[512]);
                    }
                });
                table.append(String.format(
                        "%-12s %7d %7d | %7d%n", "raw CONNECT", median(raw), p90(raw), median(raw) - median(direct)));
            }
            for (ProxyKind kind : new ProxyKind[] {
                ProxyKind.HTTP,
                ProxyKind.HTTP_AUTH,
                ProxyKind.HTTPS,
                ProxyKind.SOCKS4,
                ProxyKind.SOCKS5,
                ProxyKind.SOCKS5_AUTH
            }) {
                try (FakeServer fake = kind.start()) {
                    Proxy proxy = kind.proxy(fake);
                    long[] t = measure(() ->
                            dialer.connect(proxy, "127.0.0.1", origin.port()).close());
                    table.append(String.format(
                            "%-12s %7d %7d | %7d%n", kind, median(t), p90(t), median(t) - median(direct)));
                    assertTrue(
                            median(t) < Duration.ofMillis(50).toNanos() / 1000, kind + " median " + median(t) + " us");
                    assertTrue(fake.awaitIdle(Duration.ofSeconds(10)));
                }
            }
            System.out.println(table);
        }
    }

    interface Dial {
        void run() throws Exception;
    }

    /** Microseconds per dial, sorted. */
    private static long[] measure(Dial dial) throws Exception {
        Ticker ticker = Ticker.system();
        for (int i = 0; i < WARMUP; i++) {
            dial.run();
        }
        long[] us = new long[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            long start = ticker.read();
            dial.run();
            us[i] = (ticker.read() - start) / 1000;
        }
        Arrays.sort(us);
        return us;
    }

    private static long median(long[] sorted) {
        return sorted[sorted.length / 2];
    }

    private static long p90(long[] sorted) {
        return sorted[sorted.length * 9 / 10];
    }
}
