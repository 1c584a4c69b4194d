package dev.proxypool.sdk.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.HealthReason;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.runtime.RuntimeRegistry;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeSocks5Proxy;
import dev.proxypool.testkit.Faults;
import dev.proxypool.testkit.TestPorts;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Active probing against real fakes, with a manual clock driving health. */
@Tag("slow")
class ActiveProberTest {

    @Test
    void consecutiveFailedProbesCoolAProxy() throws Exception {
        try (ProbeLab lab = new ProbeLab()) {
            Proxy p = new ProxyFixture(Protocol.HTTP, "127.0.0.1", TestPorts.closedPort()).proxy();
            lab.proxies.add(p);
            ActiveProber prober = lab.prober(lab.echoA.url(), lab.echoB.url()).build();

            ProbeRound first = prober.runOnce();
            assertEquals(1, first.failed());
            assertEquals(
                    HealthState.HEALTHY, lab.health(p).state(), "one failed probe is not enough (failuresToCool 2)");
            assertEquals(1, lab.health(p).activeFailureStreak());

            lab.clock.advance(Duration.ofSeconds(30));
            assertEquals(1, prober.runOnce().failed());
            ProxyHealth h = lab.health(p);
            assertEquals(HealthState.COOLING, h.state());
            assertEquals(
                    new HealthReason.Failure(FailureKind.CONNECTION_REFUSED, HealthReason.Trigger.ACTIVE_PROBES_FAILED),
                    h.status().reason());

            lab.clock.advance(Duration.ofSeconds(30));
            ProbeRound cooling = prober.runOnce();
            assertEquals(1, cooling.skipped(), "a cooling proxy is not probed");
            assertEquals(2, prober.counters().failedWith(FailureKind.CONNECTION_REFUSED));
            assertEquals(
                    0, prober.counters().count(ProbeOutcome.EXCUSED), "a refused connect is the proxy's own fault");
        }
    }

    @Test
    void afterTheCooldownExactlyOneProbeIsGrantedAndSuccessRestoresHealthy() throws Exception {
        try (ProbeLab lab = new ProbeLab()) {
            FakeHttpProxy fake = lab.fake(
                    FakeHttpProxy.builder().faults(Faults.NONE.resetAfter(0)).start());
            Proxy p = lab.at(fake, Protocol.HTTP, CredentialRef.NONE, 1).getFirst();
            ActiveProber prober = lab.prober(lab.echoA.url(), lab.echoB.url()).build();
            prober.runOnce();
            lab.clock.advance(Duration.ofSeconds(30));
            prober.runOnce();
            assertEquals(HealthState.COOLING, lab.health(p).state());
            assertEquals(4, fake.acceptedConnections(), "each failure was confirmed on the second target");

            lab.clock.advance(ProbeLab.COOLDOWN.minusSeconds(1));
            assertEquals(1, prober.runOnce().skipped(), "still cooling");
            assertEquals(4, fake.acceptedConnections());

            // the proxy recovered; its answer takes a moment, so the second round surely runs while the
            // first round's recovery probe is in flight (rounds that do not overlap would both probe:
            // after the first one's success the proxy is healthy again and simply checked)
            fake.faults(Faults.NONE.latency(Duration.ofMillis(500)));
            lab.clock.advance(Duration.ofSeconds(1));
            ProbeRound[] rounds = new ProbeRound[2];
            Thread a = Thread.ofVirtual().start(() -> rounds[0] = prober.runOnce());
            Await.atMost(Duration.ofSeconds(5))
                    .until("the first round's recovery probe is in flight", () -> fake.acceptedConnections() >= 5);
            assertEquals(5, fake.acceptedConnections(), "one recovery probe so far");
            Thread b = Thread.ofVirtual().start(() -> rounds[1] = prober.runOnce());
            a.join();
            b.join();
            assertEquals(1, rounds[0].succeeded() + rounds[1].succeeded(), "exactly one recovery probe");
            assertEquals(1, rounds[0].skipped() + rounds[1].skipped(), "the other round was denied the permit");
            assertEquals(5, fake.acceptedConnections());
            ProxyHealth h = lab.health(p);
            assertEquals(HealthState.HEALTHY, h.state());
            assertEquals(HealthReason.Lifecycle.PROBE_SUCCEEDED, h.status().reason());
        }
    }

    @Test
    void aFailedRecoveryProbeDoublesTheCooldown() throws Exception {
        try (ProbeLab lab = new ProbeLab()) {
            Proxy p = new ProxyFixture(Protocol.SOCKS5, "127.0.0.1", TestPorts.closedPort()).proxy();
            lab.proxies.add(p);
            ActiveProber prober = lab.prober(lab.echoA.url()).build();
            prober.runOnce();
            prober.runOnce();
            assertEquals(HealthState.COOLING, lab.health(p).state());
            lab.clock.advance(ProbeLab.COOLDOWN);
            assertEquals(1, prober.runOnce().failed(), "the recovery probe ran and failed");
            ProxyHealth h = lab.health(p);
            assertEquals(HealthState.COOLING, h.state());
            assertEquals(ProbeLab.COOLDOWN.multipliedBy(2).toNanos(), h.status().backoffNanos());
            lab.clock.advance(ProbeLab.COOLDOWN);
            assertEquals(1, prober.runOnce().skipped(), "the doubled cooldown is not over yet");
            lab.clock.advance(ProbeLab.COOLDOWN);
            assertEquals(1, prober.runOnce().failed(), "the next single probe");
        }
    }

    @Test
    void oneDeadTargetDoesNotCoolHealthyProxies() throws Exception {
        try (ProbeLab lab = new ProbeLab()) {
            FakeHttpProxy http = lab.fake(FakeHttpProxy.start());
            FakeSocks5Proxy socks = lab.fake(FakeSocks5Proxy.start());
            lab.at(http, Protocol.HTTP, CredentialRef.NONE, 10);
            lab.at(socks, Protocol.SOCKS5, CredentialRef.NONE, 10);
            ActiveProber prober = lab.prober(lab.echoA.url(), lab.dead).build();
            int deadRounds = 0;
            for (int round = 0; round < 5; round++) {
                ProbeRound r = prober.runOnce();
                assertEquals(0, r.failed(), "round " + round + ": a dead target was blamed on a proxy");
                assertEquals(20, r.succeeded());
                deadRounds += r.deadTargets().equals(List.of(lab.dead)) ? 1 : 0;
                lab.clock.advance(Duration.ofSeconds(30));
            }
            for (Proxy p : lab.proxies) {
                assertEquals(HealthState.HEALTHY, lab.health(p).state(), p.id());
                assertEquals(0, lab.health(p).activeFailureStreak(), p.id());
            }
            assertTrue(
                    prober.counters().count(ProbeOutcome.EXCUSED) > 0,
                    "the dead target was drawn: " + prober.counters());
            assertEquals(5, deadRounds, "the dead target is reported every round");
            assertEquals(100, prober.counters().count(ProbeOutcome.SUCCEEDED));
        }
    }

    @Test
    void whenEveryTargetFailsTheConfirmedFailuresCount() throws Exception {
        try (ProbeLab lab = new ProbeLab()) {
            FakeSocks5Proxy socks = lab.fake(FakeSocks5Proxy.start());
            Proxy p = lab.at(socks, Protocol.SOCKS5, CredentialRef.NONE, 1).getFirst();
            URI alsoDead = URI.create("http://127.0.0.1:" + TestPorts.closedPort() + "/v1/echo");
            ActiveProber prober = lab.prober(lab.dead, alsoDead).build();
            ProbeRound r = prober.runOnce();
            assertEquals(1, r.failed());
            assertEquals(List.of(), r.deadTargets(), "no target worked, so none is singled out");
            assertEquals(2, socks.acceptedConnections(), "the failure was confirmed on the other target");
            prober.runOnce();
            assertEquals(HealthState.COOLING, lab.health(p).state());
            assertEquals(2, prober.counters().failedWith(FailureKind.UPSTREAM_UNREACHABLE));
        }
    }

    @Test
    void rejectedCredentialsDisableAtOnceWithoutConfirmation() throws Exception {
        try (ProbeLab lab = new ProbeLab()) {
            FakeHttpProxy fake =
                    lab.fake(FakeHttpProxy.builder().basicAuth("alice", "pw").start());
            Proxy good = lab.at(fake, Protocol.HTTP, ProbeLab.GOOD, 1).getFirst();
            Proxy wrong = lab.at(fake, Protocol.HTTP, ProbeLab.WRONG, 1).getFirst();
            ProbeRound r = lab.prober(lab.echoA.url(), lab.echoB.url()).build().runOnce();
            assertEquals(1, r.succeeded());
            assertEquals(1, r.failed());
            assertEquals(HealthState.HEALTHY, lab.health(good).state());
            assertEquals(HealthState.DISABLED, lab.health(wrong).state());
            assertEquals(2, fake.acceptedConnections(), "one probe each, no confirmation of a 407, no retry");
            assertEquals(2, fake.requestsWithCredentials());
        }
    }

    @Test
    void anOperatorDisabledProxyIsNotContacted() throws Exception {
        try (ProbeLab lab = new ProbeLab()) {
            FakeSocks5Proxy socks = lab.fake(FakeSocks5Proxy.start());
            Proxy p = lab.at(socks, Protocol.SOCKS5, CredentialRef.NONE, 1).getFirst();
            lab.health(p).disable("maintenance", lab.clock.read());
            ProbeRound r = lab.prober(lab.echoA.url()).build().runOnce();
            assertEquals(1, r.skipped());
            assertEquals(0, socks.acceptedConnections());
        }
    }

    @Test
    void successiveProbesOfAProxyRotateOverEveryTarget() throws Exception {
        try (ProbeLab lab = new ProbeLab()) {
            FakeHttpProxy http = lab.fake(FakeHttpProxy.start());
            List<Proxy> proxies = lab.at(http, Protocol.HTTP, CredentialRef.NONE, 12);
            URI a = lab.echoA.url();
            URI b = lab.echoB.url();
            URI c = URI.create(lab.echoA.url() + "?third");
            Map<String, List<URI>> seen = new ConcurrentHashMap<>();
            ActiveProber prober = lab.prober(a, b, c)
                    .listener(new ProbeListener() {
                        @Override
                        public void succeeded(Proxy proxy, URI target, Duration latency) {
                            seen.computeIfAbsent(proxy.id(), k -> Collections.synchronizedList(new ArrayList<>()))
                                    .add(target);
                        }
                    })
                    .build();

            for (int round = 0; round < 6; round++) {
                assertEquals(12, prober.runOnce().succeeded());
                lab.clock.advance(Duration.ofSeconds(30));
            }

            for (Proxy p : proxies) {
                List<URI> targets = seen.get(p.id());
                assertEquals(6, targets.size(), p.id());
                for (int i = 1; i < targets.size(); i++) {
                    assertTrue(
                            !targets.get(i).equals(targets.get(i - 1)),
                            p.id() + " probed one target twice in a row: " + targets);
                }
                assertEquals(
                        Set.of(a, b, c),
                        Set.copyOf(targets.subList(0, 3)),
                        p.id() + " visits every target: " + targets);
                assertEquals(targets.subList(0, 3), targets.subList(3, 6), p.id() + " in a fixed order: " + targets);
            }
        }
    }

    @Test
    void probesSpreadOverTheTargetsWithinARound() throws Exception {
        try (ProbeLab lab = new ProbeLab()) {
            FakeHttpProxy http = lab.fake(FakeHttpProxy.start());
            lab.at(http, Protocol.HTTP, CredentialRef.NONE, 200);
            ProbeRound r = lab.prober(lab.echoA.url(), lab.echoB.url()).build().runOnce();
            assertEquals(200, r.succeeded());
            long a = lab.echoA.requests();
            long b = lab.echoB.requests();
            assertEquals(200, a + b);
            assertTrue(a > 60 && b > 60, "a " + a + " / b " + b + " is not an even spread");
        }
    }

    @Test
    void probesRunWithBoundedConcurrency() throws Exception {
        try (ProbeLab lab = new ProbeLab()) {
            FakeHttpProxy slow = lab.fake(FakeHttpProxy.builder()
                    .faults(Faults.NONE.latency(Duration.ofMillis(100)))
                    .start());
            lab.at(slow, Protocol.HTTP, CredentialRef.NONE, 48);
            ActiveProber prober = lab.prober(lab.echoA.url(), lab.echoB.url())
                    .settings(ProberSettings.builder()
                            .targets(List.of(lab.echoA.url(), lab.echoB.url()))
                            .concurrency(8)
                            .build())
                    .build();
            ProbeRound r = prober.runOnce();
            assertEquals(48, r.succeeded());
            // counted inside the proxy's 100 ms delay, exactly: the open-connection count (sampled
            // before) also held connections whose probe had finished but whose handler had not yet
            // seen the close, and read 9 once on a busy machine
            int most = slow.maxConcurrentDelays();
            assertTrue(most <= 8, "up to " + most + " probes at once with concurrency 8");
            assertTrue(most >= 2, "probes did not overlap at all: " + most);
        }
    }

    @Test
    void theListenerHearsEveryOutcome() throws Exception {
        try (ProbeLab lab = new ProbeLab()) {
            FakeHttpProxy http = lab.fake(FakeHttpProxy.start());
            lab.at(http, Protocol.HTTP, CredentialRef.NONE, 6);
            lab.proxies.add(new ProxyFixture(Protocol.HTTP, "127.0.0.1", TestPorts.closedPort()).proxy());
            Map<ProbeOutcome, AtomicInteger> heard = new ConcurrentHashMap<>();
            AtomicInteger rounds = new AtomicInteger();
            ProbeListener listener = new ProbeListener() {
                @Override
                public void succeeded(Proxy proxy, URI target, Duration latency) {
                    heard.computeIfAbsent(ProbeOutcome.SUCCEEDED, k -> new AtomicInteger())
                            .incrementAndGet();
                }

                @Override
                public void failed(Proxy proxy, URI target, FailureKind kind) {
                    heard.computeIfAbsent(ProbeOutcome.FAILED, k -> new AtomicInteger())
                            .incrementAndGet();
                }

                @Override
                public void excused(Proxy proxy, URI target, FailureKind kind) {
                    heard.computeIfAbsent(ProbeOutcome.EXCUSED, k -> new AtomicInteger())
                            .incrementAndGet();
                }

                @Override
                public void roundCompleted(ProbeRound round) {
                    rounds.incrementAndGet();
                    throw new IllegalStateException("a failing listener must not break probing");
                }
            };
            ActiveProber prober =
                    lab.prober(lab.echoA.url(), lab.dead).listener(listener).build();
            ProbeRound r = prober.runOnce();
            assertEquals(6, r.succeeded());
            assertEquals(1, r.failed());
            assertEquals(6, heard.get(ProbeOutcome.SUCCEEDED).get());
            assertEquals(1, heard.get(ProbeOutcome.FAILED).get());
            assertEquals(
                    r.excused(),
                    heard.getOrDefault(ProbeOutcome.EXCUSED, new AtomicInteger())
                            .get());
            assertEquals(prober.counters().count(ProbeOutcome.EXCUSED), r.excused());
            assertEquals(1, rounds.get());
            assertEquals(1, prober.counters().rounds());
        }
    }

    @Test
    void startRunsRoundsOnItsScheduleAndCloseStopsPromptly() throws Exception {
        try (ProbeLab lab = new ProbeLab()) {
            FakeSocks5Proxy socks = lab.fake(FakeSocks5Proxy.start());
            lab.at(socks, Protocol.SOCKS5, CredentialRef.NONE, 2);
            RuntimeRegistry realTime =
                    new RuntimeRegistry(dev.proxypool.core.health.HealthPolicy.DEFAULTS, Ticker.system());
            CountDownLatch threeRounds = new CountDownLatch(3);
            ActiveProber fast = ActiveProber.builder(ProbeLab.dialer(), () -> lab.proxies, realTime)
                    .settings(ProberSettings.builder()
                            .targets(List.of(lab.echoA.url()))
                            .interval(Duration.ofMillis(20))
                            .build())
                    .listener(new ProbeListener() {
                        @Override
                        public void roundCompleted(ProbeRound round) {
                            threeRounds.countDown();
                        }
                    })
                    .build();
            fast.start();
            assertTrue(threeRounds.await(10, TimeUnit.SECONDS), "rounds did not repeat on the interval");
            fast.close();
            long after = fast.counters().rounds();
            assertThrows(IllegalStateException.class, fast::start);
            assertEquals(after, fast.counters().rounds(), "a round ran after close");

            ActiveProber slow = ActiveProber.builder(ProbeLab.dialer(), () -> lab.proxies, realTime)
                    .settings(ProberSettings.builder()
                            .targets(List.of(lab.echoA.url()))
                            .interval(Duration.ofHours(1))
                            .build())
                    .build();
            slow.start();
            Await.atMost(Duration.ofSeconds(10))
                    .until("the first probe round", () -> slow.counters().rounds(), n -> n > 0);
            long t0 = Ticker.system().read();
            slow.close();
            assertTrue((Ticker.system().read() - t0) < 2_000_000_000L, "close waited for the hour-long interval");
        }
    }

    @Test
    void settingsAreValidatedWithTheirKey() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> ProberSettings.builder()
                        .targets(List.of(URI.create("ftp://x/")))
                        .build());
        assertTrue(e.getMessage().contains("health.active.targets[0]"), e.getMessage());
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> ProberSettings.builder().targets(List.of()).build())
                .getMessage()
                .contains("health.active.targets"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> ProberSettings.builder().interval(Duration.ZERO).build())
                .getMessage()
                .contains("health.active.interval"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> ProberSettings.builder().concurrency(0).build())
                .getMessage()
                .contains("concurrency"));
    }

    /** A proxy at an address with no fake behind it. */
    private record ProxyFixture(Protocol protocol, String host, int port) {
        Proxy proxy() {
            return Proxy.builder(new ProxyKey(protocol, host, port, CredentialRef.NONE))
                    .build();
        }
    }
}
