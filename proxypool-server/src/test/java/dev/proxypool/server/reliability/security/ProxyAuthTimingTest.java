package dev.proxypool.server.reliability.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.security.SecretHash;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.RawHttp;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #9 scenario 5: wrong proxy credentials get {@code 407} from the live gateway in the same
 * time whether or not the user exists. Attempts of an existing user with a wrong password and of
 * unknown users are interleaved on fresh connections; both medians must be at least half the
 * fastest PBKDF2 of the configured cost (measured here) and within a factor of 1.5 of each other. Without the dummy
 * hash an unknown user would answer in well under a millisecond against several ms (ratio well below 0.2).
 * The authenticator-level version (and constant-time digest compares) is
 * {@code access/ClientAuthenticatorTest}.
 */
@Tag("slow")
class ProxyAuthTimingTest {

    /** Low enough to keep 2 × 200 attempts within seconds, high enough for PBKDF2 to dominate a request. */
    private static final int ITERATIONS = 15_000;

    private static final int ATTEMPTS = 200;

    @TempDir
    Path dir;

    private static String basic(String user, String secret) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + secret).getBytes(StandardCharsets.UTF_8));
    }

    private static long timed407(int gatewayPort, String proxyAuthorization) throws Exception {
        long start = System.nanoTime();
        RawHttp.Response r = attempt(gatewayPort, proxyAuthorization);
        long nanos = System.nanoTime() - start;
        assertEquals(407, r.status());
        assertTrue(
                r.header("Proxy-Authenticate") != null
                        && r.header("Proxy-Authenticate").startsWith("Basic"),
                "407 carries a Basic challenge");
        return nanos;
    }

    private static RawHttp.Response attempt(int gatewayPort, String proxyAuthorization) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), gatewayPort)) {
            s.setSoTimeout(15_000);
            return RawHttp.exchange(
                    RawHttp.buffered(s),
                    s.getOutputStream(),
                    "GET http://93.184.216.34/ HTTP/1.1\r\n" + "Host: 93.184.216.34\r\nProxy-Authorization: "
                            + proxyAuthorization + "\r\nConnection: close\r\n\r\n",
                    false);
        }
    }

    private static double medianMillis(long[] nanos) {
        long[] c = nanos.clone();
        Arrays.sort(c);
        return c[c.length / 2] / 1e6;
    }

    @Test
    void wrongPasswordAndUnknownUserTakeTheSameTimeOverTheLiveGateway() throws Exception {
        String hash = SecretHash.hash("alice-right-secret".toCharArray(), ITERATIONS);
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                clients: [{ name: alice, secretHash: "%s" }, { name: bob, secretHash: "%s" }]
                health: { active: { enabled: false } }
                """.formatted(hash, SecretHash.hash("bob-secret".toCharArray(), ITERATIONS)));
        try (ProxyPoolServer server =
                ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).start()) {
            int gw = server.gatewayPort();
            assertNotEquals(
                    407, attempt(gw, basic("alice", "alice-right-secret")).status(), "sanity: the right secret passes");
            for (int i = 0; i < 10; i++) { // warm-up of both paths
                timed407(gw, basic("alice", "warm-" + i));
                timed407(gw, basic("nobody-" + i, "warm-" + i));
            }
            long[] known = new long[ATTEMPTS];
            long[] unknown = new long[ATTEMPTS];
            for (int i = 0; i < ATTEMPTS; i++) {
                String knownUser = basic(i % 2 == 0 ? "alice" : "bob", "wrong-password-" + i);
                String unknownUser = basic("mallory-" + i, "wrong-password-" + i);
                if (i % 2 == 0) { // alternate the order so drift hits both equally
                    known[i] = timed407(gw, knownUser);
                    unknown[i] = timed407(gw, unknownUser);
                } else {
                    unknown[i] = timed407(gw, unknownUser);
                    known[i] = timed407(gw, knownUser);
                }
            }
            long[] pbkdf2 = new long[21]; // measured after the gateway warmed the same code up
            for (int i = 0; i < pbkdf2.length; i++) {
                long s = System.nanoTime();
                SecretHash.verify("not-it".toCharArray(), hash);
                pbkdf2[i] = System.nanoTime() - s;
            }
            double hashMillis = medianMillis(pbkdf2);
            double fastestHashMillis = Arrays.stream(pbkdf2).min().orElseThrow() / 1e6;
            double k = medianMillis(known);
            double u = medianMillis(unknown);
            System.out.printf(
                    "407 timing over the live gateway, %d attempts each: existing user + wrong password median %.2f ms,"
                            + " unknown user median %.2f ms (ratio %.3f); one PBKDF2 at %d iterations %.2f ms%n",
                    ATTEMPTS, k, u, u / k, ITERATIONS, hashMillis);
            assertTrue(
                    k >= fastestHashMillis / 2 && u >= fastestHashMillis / 2,
                    "both answers run a PBKDF2 of the configured cost: " + k + " / " + u + " ms vs " + fastestHashMillis
                            + " ms");
            assertTrue(u / k > 1 / 1.5 && u / k < 1.5, "unknown " + u + " ms vs wrong password " + k + " ms");
        }
    }
}
