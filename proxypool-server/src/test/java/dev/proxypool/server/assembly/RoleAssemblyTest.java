package dev.proxypool.server.assembly;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.nodes.NodeSettings;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.coordination.ServeRole;
import dev.proxypool.server.gateway.GatewayEngine;
import dev.proxypool.server.nodes.NodeStore;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Each role's assembly, and what the server's main code does not carry. */
class RoleAssemblyTest {

    @Test
    void eachRoleHasItsAssembly() {
        assertInstanceOf(ControlPlaneAssembly.class, RoleAssembly.of(ServeRole.ALL));
        assertInstanceOf(ControlPlaneAssembly.class, RoleAssembly.of(ServeRole.CONTROL));
        assertInstanceOf(WorkerAssembly.class, RoleAssembly.of(ServeRole.WORKER));
        assertTrue(RoleAssembly.of(ServeRole.ALL).collects());
        assertFalse(RoleAssembly.of(ServeRole.WORKER).collects());
    }

    @Test
    void aWorkerServesNoControlPlanePartsAndCollectsNothing() {
        RoleAssembly worker = RoleAssembly.of(ServeRole.WORKER);
        try (ProxyPool pool = ProxyPool.builder()
                .config(ProxyPoolConfig.defaults())
                .activeProbing(false)
                .deferStart(true)
                .build()) {
            assertNull(worker.series(pool, null));
            assertNull(worker.admin(() -> {
                throw new AssertionError("a worker builds no admin API");
            }));
            assertNull(worker.nodes(pool, NodeSettings.DEFAULTS, NodeStore.NONE));
            assertNull(worker.pipelineLease(ProxyPoolConfig.defaults(), pool));
            worker.followCollection(pool, ProxyPoolConfig.defaults()); // a no-op, even for the defaults
        }
    }

    @Test
    void theServersMainCodeCarriesNoHarness() throws IOException, URISyntaxException {
        Path classes = Path.of(GatewayEngine.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        assertTrue(Files.isDirectory(classes.resolve("dev/proxypool/server/gateway")), classes.toString());
        try (Stream<Path> all = Files.walk(classes)) {
            assertTrue(
                    all.map(p -> classes.relativize(p).toString())
                            .noneMatch(p -> p.contains("staticupstream")
                                    || p.contains("StaticGatewayMain")
                                    || p.contains("DirectEngine")),
                    "benchmark-only code belongs to benchmarks/ or the test fixtures");
        }
    }
}
