package dev.proxypool.sdk.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Anonymity;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.FakeServer;
import dev.proxypool.testkit.TestTls;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every protocol, with and without auth, validated end to end against the real echo server. */
class ValidatorProtocolTest {

    private static final Duration IDLE = Duration.ofSeconds(5);

    static Validator validator(EchoServer echo) throws EchoUnavailableException {
        return Validator.builder(Kind.dialer())
                .settings(ValidatorSettings.builder()
                        .echoUrl(echo.url())
                        .timeout(Duration.ofSeconds(5))
                        .build())
                .echoTls(TestTls.clientContext())
                .start();
    }

    @ParameterizedTest(name = "{0} to an http:// echo")
    @EnumSource(Kind.class)
    void everyProtocolIsEliteThroughAPlainEcho(Kind kind) throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeServer fake = kind.start()) {
            Validator v = validator(echo);
            assertEquals(Set.of(InetAddress.ofLiteral("127.0.0.1")), v.directAddresses());
            ValidationResult r = v.validate(kind.proxy(fake));
            ValidationResult.Accepted a = assertInstanceOf(ValidationResult.Accepted.class, r, r.toString());
            assertEquals(Verdict.ELITE, a.verdict());
            assertEquals("127.0.0.2", a.exitIp());
            assertTrue(a.latency().toNanos() > 0);
            Proxy validated = a.validatedProxy();
            assertEquals(Anonymity.ELITE, validated.anonymity());
            assertEquals("127.0.0.2", validated.exitNetwork().exitIp());
            assertEquals(kind.proxy(fake).id(), validated.id());
            if (fake instanceof FakeHttpProxy http) {
                assertEquals(
                        1, http.forwardedRequests(), "plain HTTP goes in absolute form, as the gateway forwards it");
                assertEquals(0, http.tunnels());
            }
            assertEquals(1, fake.acceptedConnections());
            assertTrue(fake.awaitIdle(IDLE), "connections leaked");
            assertEquals(1, v.counters().count(Verdict.ELITE));
        }
    }

    @ParameterizedTest(name = "{0} to an https:// echo")
    @EnumSource(Kind.class)
    void everyProtocolIsEliteWithTlsInsideTheTunnel(Kind kind) throws Exception {
        try (EchoServer echo = EchoServer.builder().tls(TestTls.serverContext()).start();
                FakeServer fake = kind.start()) {
            ValidationResult r = validator(echo).validate(kind.proxy(fake));
            ValidationResult.Accepted a = assertInstanceOf(ValidationResult.Accepted.class, r, r.toString());
            assertEquals(Verdict.ELITE, a.verdict());
            assertEquals("127.0.0.2", a.exitIp());
            if (fake instanceof FakeHttpProxy http) {
                assertEquals(1, http.tunnels(), "an https:// echo goes through CONNECT");
            }
            assertTrue(fake.awaitIdle(IDLE));
        }
    }

    @Test
    void theTestKitOriginsEchoHasTheSameShape() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeServer fake = Kind.SOCKS5.start()) {
            Validator v = Validator.builder(Kind.dialer())
                    .settings(ValidatorSettings.of(origin.uri("/echo")))
                    .start();
            assertEquals(Verdict.ELITE, v.validate(Kind.SOCKS5.proxy(fake)).verdict());
        }
    }

    @Test
    void latencyIsMeasuredWithTheInjectedTicker() throws Exception {
        long step = 3_000_000;
        AtomicLong now = new AtomicLong(1_000_000_000L);
        try (EchoServer echo = EchoServer.start();
                FakeServer fake = Kind.HTTP.start()) {
            Validator v = Validator.builder(Kind.dialer())
                    .settings(ValidatorSettings.of(echo.url()))
                    .ticker(() -> now.addAndGet(step))
                    .start();
            ValidationResult r = v.validate(Kind.HTTP.proxy(fake));
            assertEquals(Verdict.ELITE, r.verdict(), r.toString());
            long nanos = r.latency().toNanos();
            assertTrue(
                    nanos > 0 && nanos % step == 0 && nanos < 100 * step,
                    "latency " + nanos + " is not in ticker steps");
        }
    }

    @Test
    void anHttpsProxyIsDialledWithTls() throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeServer fake = Kind.HTTPS.start()) {
            assertEquals(Protocol.HTTPS, Kind.HTTPS.proxy(fake).protocol());
            assertTrue(fake.isTls());
            assertEquals(
                    Verdict.ELITE,
                    validator(echo).validate(Kind.HTTPS.proxy(fake)).verdict());
        }
    }
}
