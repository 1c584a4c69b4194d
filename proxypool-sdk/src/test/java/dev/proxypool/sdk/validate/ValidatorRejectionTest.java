package dev.proxypool.sdk.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.dial.DialPolicy;
import dev.proxypool.sdk.dial.UpstreamDialer;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.FakeServer;
import dev.proxypool.testkit.FakeSocks4Proxy;
import dev.proxypool.testkit.FakeSocks5Proxy;
import dev.proxypool.testkit.Faults;
import dev.proxypool.testkit.NotAProxy;
import dev.proxypool.testkit.TestPorts;
import dev.proxypool.testkit.TestTls;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Every way a candidate is turned away, each with its reason code, against real sockets. */
@Tag("slow")
class ValidatorRejectionTest {

    private static final Duration IDLE = Duration.ofSeconds(5);

    private static Validator validator(URI echo, UpstreamDialer dialer, Duration timeout)
            throws EchoUnavailableException {
        return Validator.builder(dialer)
                .settings(ValidatorSettings.builder()
                        .echoUrl(echo)
                        .timeout(timeout)
                        .build())
                .echoTls(TestTls.clientContext())
                .start();
    }

    private static Validator validator(EchoServer echo) throws EchoUnavailableException {
        return validator(echo.url(), Kind.dialer(), Duration.ofSeconds(5));
    }

    private static ValidationResult.Rejected rejected(ValidationResult r, RejectReason reason) {
        ValidationResult.Rejected rej = assertInstanceOf(ValidationResult.Rejected.class, r, r.toString());
        assertEquals(reason, rej.reason(), rej.detail());
        assertEquals(Verdict.REJECTED, rej.verdict());
        return rej;
    }

    static Stream<Arguments> authKindsAndEchoSchemes() {
        return Stream.of(Kind.values())
                .filter(k -> k.auth)
                .flatMap(k -> Stream.of(Arguments.of(k, false), Arguments.of(k, true)));
    }

    @ParameterizedTest(name = "{0}, https echo {1}")
    @MethodSource("authKindsAndEchoSchemes")
    void aWrongPasswordIsRejectedWithoutAnUnauthenticatedRetry(Kind kind, boolean tlsEcho) throws Exception {
        EchoServer.Builder eb = EchoServer.builder();
        try (EchoServer echo = (tlsEcho ? eb.tls(TestTls.serverContext()) : eb).start();
                FakeServer fake = kind.start()) {
            ValidationResult.Rejected r =
                    rejected(validator(echo).validate(kind.proxy(fake, Kind.WRONG)), RejectReason.AUTH_REJECTED);
            assertEquals(Optional.of(FailureKind.PROXY_AUTH_REJECTED), r.failureKind());
            assertFalse(r.detail().contains("not-the-password") || r.detail().contains("mallory"), r.detail());
            assertEquals(1, fake.acceptedConnections(), "exactly one attempt, no retry");
            switch (fake) {
                case FakeHttpProxy http -> {
                    assertEquals(1, http.requests());
                    assertEquals(1, http.requestsWithCredentials(), "the one attempt carried credentials");
                    assertEquals(1, http.authChallenges());
                }
                case FakeSocks5Proxy s5 ->
                    assertEquals(1, s5.authFailures(), "the one attempt authenticated (RFC 1929)");
                case FakeSocks4Proxy s4 -> assertEquals(1, s4.rejectedUserIds());
                default -> throw new AssertionError(fake);
            }
            assertEquals(0, echo.requests() - 1, "only the validator's own direct call reached the echo");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = Kind.class,
            names = {"HTTP_AUTH", "HTTPS_AUTH", "SOCKS5_AUTH"})
    void aProxyThatWantsCredentialsTheCandidateLacksIsAuthRejected(Kind kind) throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeServer fake = kind.start()) {
            rejected(validator(echo).validate(kind.proxy(fake, CredentialRef.NONE)), RejectReason.AUTH_REJECTED);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void aMissingCredentialRefFailsClosedBeforeAnyPacket(Kind kind) throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeServer fake = kind.start()) {
            ValidationResult.Rejected r = rejected(
                    validator(echo).validate(kind.proxy(fake, Kind.MISSING)), RejectReason.CREDENTIALS_MISSING);
            assertTrue(r.detail().contains("missing"), r.detail());
            assertEquals(0, fake.acceptedConnections(), "nothing may be sent without the credentials");
        }
    }

    @Test
    void xForwardedForCarryingTheValidatorsAddressIsALeak() throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeHttpProxy proxy = FakeHttpProxy.builder()
                        .outboundFrom(Kind.EXIT)
                        .headers(FakeHttpProxy.HeaderBehaviour.LEAK_FORWARDED_FOR)
                        .start()) {
            ValidationResult.Rejected r =
                    rejected(validator(echo).validate(proxy.asProxy()), RejectReason.ADDRESS_LEAKED);
            assertEquals(Optional.of("127.0.0.2"), r.exitIp());
            assertEquals(Optional.empty(), r.failureKind(), "a leak is a judgement, not a network failure");
            assertTrue(r.detail().contains("X-Forwarded-For"), r.detail());
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "X-Real-IP       | {client}",
                "Client-IP       | {client}",
                "True-Client-IP  | {client}",
                "Forwarded       | for={client};proto=http",
                "Forwarded       | for=\"{client}:50123\"",
                "X-Forwarded-For | 10.9.8.7, {client}",
            })
    void everyForwardingHeaderIsSearchedForTheValidatorsAddress(String header, String value) throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeHttpProxy proxy = FakeHttpProxy.builder()
                        .outboundFrom(Kind.EXIT)
                        .addHeader(header, value)
                        .start()) {
            ValidationResult.Rejected r =
                    rejected(validator(echo).validate(proxy.asProxy()), RejectReason.ADDRESS_LEAKED);
            assertTrue(r.detail().toLowerCase().contains(header.toLowerCase()), r.detail());
        }
    }

    @Test
    void viaWithoutALeakIsAnonymous() throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeHttpProxy proxy = FakeHttpProxy.builder()
                        .outboundFrom(Kind.EXIT)
                        .headers(FakeHttpProxy.HeaderBehaviour.ADD_VIA)
                        .start()) {
            ValidationResult r = validator(echo).validate(proxy.asProxy());
            ValidationResult.Accepted a = assertInstanceOf(ValidationResult.Accepted.class, r, r.toString());
            assertEquals(Verdict.ANONYMOUS, a.verdict());
            assertEquals("proxy marker Via", a.marker());
            assertEquals("127.0.0.2", a.exitIp());
        }
    }

    @Test
    void aForwardingHeaderWithAnotherAddressIsOnlyAMarker() throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeHttpProxy proxy = FakeHttpProxy.builder()
                        .outboundFrom(Kind.EXIT)
                        .addHeader("X-Forwarded-For", "192.0.2.44")
                        .start()) {
            assertEquals(
                    Verdict.ANONYMOUS, validator(echo).validate(proxy.asProxy()).verdict());
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void aProxyExitingFromTheValidatorsOwnAddressIsTransparent(Kind kind) throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeServer fake = kind.start(null, Faults.NONE)) {
            ValidationResult.Rejected r =
                    rejected(validator(echo).validate(kind.proxy(fake)), RejectReason.DIRECT_ADDRESS_SEEN);
            assertEquals(Optional.of("127.0.0.1"), r.exitIp());
        }
    }

    @Test
    void configuredExtraAddressesAlsoCountAsTheValidatorsOwn() throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeServer fake = Kind.SOCKS5.start()) {
            Validator v = Validator.builder(Kind.dialer())
                    .settings(ValidatorSettings.builder()
                            .echoUrl(echo.url())
                            .extraDirectAddresses(List.of("127.0.0.2"))
                            .build())
                    .start();
            assertEquals(2, v.directAddresses().size());
            rejected(v.validate(Kind.SOCKS5.proxy(fake)), RejectReason.DIRECT_ADDRESS_SEEN);
        }
    }

    @ParameterizedTest(name = "{0} at a port that is not a proxy")
    @CsvSource({"HTTP, PROTOCOL_ERROR", "SOCKS4, PROTOCOL_ERROR", "SOCKS5, PROTOCOL_ERROR", "HTTPS, TLS_FAILURE"})
    void anOpenPortThatIsNotAProxyIsRejected(Protocol protocol, RejectReason reason) throws Exception {
        try (EchoServer echo = EchoServer.start();
                NotAProxy port = NotAProxy.start(NotAProxy.Behaviour.GARBAGE)) {
            rejected(validator(echo).validate(port.asProxy(protocol)), reason);
        }
    }

    @ParameterizedTest(name = "{0} at a web server")
    @CsvSource({"HTTP, BAD_ECHO_RESPONSE", "SOCKS4, PROTOCOL_ERROR", "SOCKS5, PROTOCOL_ERROR"})
    void aWebServerThatAnswers200ToEverythingIsRejected(Protocol protocol, RejectReason reason) throws Exception {
        try (EchoServer echo = EchoServer.start();
                NotAProxy port = NotAProxy.start(NotAProxy.Behaviour.HTTP_200)) {
            rejected(validator(echo).validate(port.asProxy(protocol)), reason);
        }
    }

    @Test
    void aPortThatClosesAtOnceIsAReset() throws Exception {
        try (EchoServer echo = EchoServer.start();
                NotAProxy port = NotAProxy.start(NotAProxy.Behaviour.CLOSE)) {
            rejected(validator(echo).validate(port.asProxy(Protocol.SOCKS5)), RejectReason.CONNECTION_RESET);
        }
    }

    @Test
    void aClosedPortIsConnectionRefused() throws Exception {
        try (EchoServer echo = EchoServer.start()) {
            Proxy p = Kind.proxyAt(Protocol.HTTP, "127.0.0.1", TestPorts.closedPort(), CredentialRef.NONE);
            ValidationResult.Rejected r = rejected(validator(echo).validate(p), RejectReason.CONNECTION_REFUSED);
            assertEquals(Optional.of(FailureKind.CONNECTION_REFUSED), r.failureKind());
        }
    }

    @Test
    void aConnectThatTimesOutInTheDialerIsAConnectTimeout() throws Exception {
        try (EchoServer echo = EchoServer.start();
                TestPorts.Blackhole hole = TestPorts.blackhole()) {
            UpstreamDialer dialer = Kind.dialer(DialPolicy.DEFAULTS.withConnectTimeout(Duration.ofMillis(300)));
            Proxy p = Kind.proxyAt(Protocol.SOCKS5, hole.host(), hole.port(), CredentialRef.NONE);
            rejected(validator(echo.url(), dialer, Duration.ofSeconds(5)).validate(p), RejectReason.CONNECT_TIMEOUT);
        }
    }

    @Test
    void aConnectLongerThanTheDeadlineIsCutAtTheDeadline() throws Exception {
        try (EchoServer echo = EchoServer.start();
                TestPorts.Blackhole hole = TestPorts.blackhole()) {
            Validator v = validator(echo.url(), Kind.dialer(), Duration.ofMillis(500)); // dialer connect timeout: 5 s
            Proxy p = Kind.proxyAt(Protocol.HTTP, hole.host(), hole.port(), CredentialRef.NONE);
            long start = Ticker.system().read();
            ValidationResult.Rejected r = rejected(v.validate(p), RejectReason.TIMEOUT);
            long tookMs = (Ticker.system().read() - start) / 1_000_000;
            assertTrue(tookMs < 1_500, "took " + tookMs + " ms with a 500 ms deadline");
            assertEquals(Optional.of(FailureKind.CONNECT_TIMEOUT), r.failureKind());
        }
    }

    @ParameterizedTest(name = "{0} that hangs")
    @EnumSource(
            value = Kind.class,
            names = {"HTTP", "HTTPS", "SOCKS4", "SOCKS5_AUTH"})
    void aProxyThatHangsTimesOutWithinTheDeadline(Kind kind) throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeServer fake = kind.start(Kind.EXIT, Faults.NONE.hang())) {
            Validator v = validator(echo.url(), Kind.dialer(), Duration.ofMillis(600)); // dialer handshake timeout: 5 s
            long start = Ticker.system().read();
            rejected(v.validate(kind.proxy(fake)), RejectReason.TIMEOUT);
            long tookMs = (Ticker.system().read() - start) / 1_000_000;
            assertTrue(tookMs >= 550 && tookMs < 1_600, "took " + tookMs + " ms with a 600 ms deadline");
            assertTrue(fake.awaitIdle(IDLE), "the hung connection was not closed");
        }
    }

    @Test
    void aTricklingReplyIsCutAtTheDeadline() throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeServer fake = Kind.HTTP.start(Kind.EXIT, Faults.NONE.trickle(1, Duration.ofMillis(50)))) {
            Validator v = validator(echo.url(), Kind.dialer(), Duration.ofMillis(700));
            long start = Ticker.system().read();
            ValidationResult.Rejected r = rejected(v.validate(Kind.HTTP.proxy(fake)), RejectReason.TIMEOUT);
            long tookMs = (Ticker.system().read() - start) / 1_000_000;
            assertTrue(tookMs < 1_700, "took " + tookMs + " ms with a 700 ms deadline");
            assertEquals(Optional.of(FailureKind.SLOW_BODY), r.failureKind());
        }
    }

    @ParameterizedTest(name = "forced {0}")
    @CsvSource({
        "502, UPSTREAM_UNREACHABLE",
        "504, UPSTREAM_UNREACHABLE",
        "403, BAD_ECHO_RESPONSE",
        "404, BAD_ECHO_RESPONSE"
    })
    void aProxyErrorStatusHasItsReason(int status, RejectReason reason) throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeHttpProxy proxy = FakeHttpProxy.builder()
                        .outboundFrom(Kind.EXIT)
                        .forceStatus(status)
                        .start()) {
            ValidationResult.Rejected r = rejected(validator(echo).validate(proxy.asProxy()), reason);
            assertTrue(r.detail().contains(Integer.toString(status)), r.detail());
        }
    }

    @Test
    void anEchoEndpointThatIsDownMeansNoValidator() {
        URI down = URI.create("http://127.0.0.1:" + TestPorts.closedPort() + "/v1/echo");
        EchoUnavailableException e = assertThrows(
                EchoUnavailableException.class, () -> validator(down, Kind.dialer(), Duration.ofSeconds(2)));
        assertTrue(e.getMessage().contains("own address"), e.getMessage());
    }

    @Test
    void anEchoEndpointThatIsNotAnEchoMeansNoValidator() {
        try (FakeOrigin origin = FakeOrigin.start()) {
            EchoUnavailableException e = assertThrows(
                    EchoUnavailableException.class,
                    () -> validator(origin.uri("/"), Kind.dialer(), Duration.ofSeconds(2)));
            assertTrue(e.getMessage().contains("echo JSON"), e.getMessage());
            EchoUnavailableException missing = assertThrows(
                    EchoUnavailableException.class,
                    () -> validator(origin.uri("/nothing"), Kind.dialer(), Duration.ofSeconds(2)));
            assertTrue(missing.getMessage().contains("404"), missing.getMessage());
        }
    }

    @Test
    void countersAddUpByVerdictAndReason() throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeServer good = Kind.SOCKS5.start();
                FakeServer transparent = Kind.SOCKS5.start(null, Faults.NONE)) {
            Validator v = validator(echo);
            v.validate(Kind.SOCKS5.proxy(good));
            v.validate(Kind.SOCKS5.proxy(transparent));
            v.validate(Kind.SOCKS5.proxy(good, Kind.MISSING));
            assertEquals(3, v.counters().total());
            assertEquals(1, v.counters().count(Verdict.ELITE));
            assertEquals(2, v.counters().count(Verdict.REJECTED));
            assertEquals(1, v.counters().count(RejectReason.DIRECT_ADDRESS_SEEN));
            assertEquals(1, v.counters().count(RejectReason.CREDENTIALS_MISSING));
        }
    }
}
