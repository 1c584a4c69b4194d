package dev.proxypool.sdk.probe;

import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.runtime.RuntimeRegistry;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import dev.proxypool.sdk.dial.UpstreamDialer;
import dev.proxypool.sdk.validate.EchoServer;
import dev.proxypool.testkit.FakeServer;
import dev.proxypool.testkit.TestPorts;
import dev.proxypool.testkit.TestTls;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

/** A manual clock, a registry with the default health policy, live echo targets and a dead one. */
final class ProbeLab implements AutoCloseable {

    static final CredentialRef GOOD = new CredentialRef("good");
    static final CredentialRef WRONG = new CredentialRef("wrong");
    static final StaticCredentialStore STORE =
            StaticCredentialStore.empty().with("good", "alice", "pw").with("wrong", "alice", "nope");
    static final Duration COOLDOWN = HealthPolicy.DEFAULTS.cooldownInitial();

    final ManualClock clock = new ManualClock();
    final RuntimeRegistry registry = new RuntimeRegistry(HealthPolicy.DEFAULTS, clock);
    final List<Proxy> proxies = new CopyOnWriteArrayList<>();
    final EchoServer echoA = EchoServer.start();
    final EchoServer echoB = EchoServer.start();
    final URI dead = URI.create("http://127.0.0.1:" + TestPorts.closedPort() + "/v1/echo");
    private final List<AutoCloseable> closing = new ArrayList<>();

    static UpstreamDialer dialer() {
        return UpstreamDialer.builder(STORE).proxyTls(TestTls.clientContext()).build();
    }

    ActiveProber.Builder prober(URI... targets) {
        return ActiveProber.builder(dialer(), () -> proxies, registry)
                .random(new Random(42))
                .settings(ProberSettings.builder()
                        .targets(List.of(targets))
                        .timeout(Duration.ofSeconds(5))
                        .build());
    }

    <T extends FakeServer> T fake(T f) {
        closing.add(f);
        return f;
    }

    /** {@code n} proxies (distinct ids) at one fake. */
    List<Proxy> at(FakeServer fake, Protocol protocol, CredentialRef ref, int n) {
        List<Proxy> made = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            made.add(Proxy.builder(new ProxyKey(protocol, fake.host(), fake.port(), ref))
                    .id("p-" + fake.port() + "-" + proxies.size())
                    .build());
            proxies.add(made.getLast());
        }
        return made;
    }

    dev.proxypool.core.health.ProxyHealth health(Proxy p) {
        return registry.runtimeFor(p).health();
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        echoA.close();
        echoB.close();
    }
}
