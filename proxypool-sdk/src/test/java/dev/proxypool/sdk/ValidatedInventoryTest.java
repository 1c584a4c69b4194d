package dev.proxypool.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Anonymity;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.validate.EchoServer;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.TestPorts;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code validate: true} upstreams go through the real validator before they serve. */
class ValidatedInventoryTest {

    @TempDir
    Path dir;

    private Path config(String echoUrl, int goodPort, int leakyPort, int deadPort) throws Exception {
        Files.writeString(
                dir.resolve("inv.txt"),
                "127.0.0.1:" + goodPort + "\n127.0.0.1:" + leakyPort + "\n127.0.0.1:" + deadPort + "\n");
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                providers: [{ name: lab, type: text_list, path: inv.txt, protocol: http }]
                upstreams: [{ name: lab, provider: lab }]
                pipeline: { echoUrl: "%s", validationTimeout: 3s, minScore: 0 }
                """.formatted(echoUrl));
        return cfg;
    }

    @Test
    void onlyProxiesThatPassTheFullPathServe() throws Exception {
        InetAddress other = InetAddress.getByName("127.0.0.2");
        try (EchoServer echo = EchoServer.start();
                FakeHttpProxy good = FakeHttpProxy.builder().outboundFrom(other).start();
                FakeHttpProxy leaky = FakeHttpProxy.builder()
                        .outboundFrom(other)
                        .headers(FakeHttpProxy.HeaderBehaviour.LEAK_FORWARDED_FOR)
                        .start()) {
            int dead = TestPorts.closedPort();
            try (ProxyPool pool = ProxyPool.builder()
                    .background(false)
                    .config(dev.proxypool.sdk.config.ConfigLoader.load(
                            config(echo.url().toString(), good.port(), leaky.port(), dead)))
                    .build()) {
                assertEquals(1, EmbeddedProxyPool.engineOf(pool).snapshot().size());
                Proxy served = EmbeddedProxyPool.engineOf(pool).snapshot().proxy(0);
                assertEquals(good.port(), served.port());
                assertEquals(Anonymity.ELITE, served.anonymity());
                assertEquals("127.0.0.2", served.exitNetwork().exitIp());
            }
        }
    }

    @Test
    void withoutAnEchoEndpointNothingUnvalidatedIsPublished() throws Exception {
        try (FakeHttpProxy good = FakeHttpProxy.builder()
                .outboundFrom(InetAddress.getByName("127.0.0.2"))
                .start()) {
            int closed = TestPorts.closedPort();
            try (ProxyPool pool = ProxyPool.builder()
                    .background(false)
                    .config(dev.proxypool.sdk.config.ConfigLoader.load(
                            config("http://127.0.0.1:" + closed + "/v1/echo", good.port(), good.port(), good.port())))
                    .build()) {
                assertEquals(
                        0,
                        EmbeddedProxyPool.engineOf(pool).snapshot().size(),
                        "fail closed: no echo, no validated proxies");
                assertTrue(EmbeddedProxyPool.pipelineOf(pool).isPresent());
            }
        }
    }
}
