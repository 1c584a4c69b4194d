package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS through a ProxyPool gateway that requires client credentials, with the JDK {@code HttpClient}
 * the SDK's {@code httpClientBuilder} makes, in a JVM that does not clear
 * {@code jdk.http.auth.tunneling.disabledSchemes} (this test JVM does, in the build's argLine, so the
 * client runs in a child JVM started without it). The JDK's default refuses Basic on {@code CONNECT}
 * and the request ended in 407; the SDK must make it work.
 */
@Tag("slow")
class JdkClientThroughGatewayTest {

    @TempDir
    Path dir;

    @Test
    void theSdkClientBuilderGetsThroughAnAuthenticatingGatewayOverHttps() throws Exception {
        try (FakeOrigin tlsOrigin = FakeOrigin.builder().tls().start();
                FakeHttpProxy upstream = FakeHttpProxy.start()) {
            Files.createDirectories(dir.resolve("gw"));
            try (ApiServer gateway = ApiServer.start(
                    dir.resolve("gw"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + upstream.port() + ", \"protocol\": \"http\"}\n",
                    """
                    security: { allowDestinations: ["127.0.0.0/8"], connectPorts: [%d] }
                    routings: [{ name: all, upstreams: [lab] }]
                    """.formatted(tlsOrigin.port()))) {
                Process child = new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java")
                                        .toString(),
                                "--sun-misc-unsafe-memory-access=allow",
                                "-cp",
                                System.getProperty("java.class.path"),
                                GatewayHttpsChild.class.getName(),
                                Integer.toString(gateway.server.gatewayPort()),
                                "alice",
                                "alice-secret",
                                tlsOrigin.url("/echo"),
                                dir.resolve("child").toString())
                        .redirectErrorStream(true)
                        .start();
                child.getOutputStream().close();
                String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(child.waitFor(90, TimeUnit.SECONDS), out);
                List<String> lines = out.lines().toList();
                assertTrue(lines.contains("property-at-start=null"), "the child runs with the JDK default: " + out);
                assertTrue(lines.contains("status=200"), "HTTPS through the gateway answered: " + out);
                assertEquals(0, child.exitValue(), out);
                assertTrue(upstream.tunnels() >= 1, "the tunnel went through the gateway's upstream");
            }
        }
    }
}
