package dev.proxypool.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.remote.DistributionClient;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The public surface an embedding application sees: the packages the {@code dev.proxypool.sdk} and
 * {@code dev.proxypool.core} modules export (read from their compiled module descriptors), and the
 * facade's methods.
 */
class SdkSurfaceTest {

    @Test
    void sdkModuleExportsOnlyThePublicPackages() throws Exception {
        ModuleDescriptor sdk = descriptorOf(ProxyPool.class, "dev.proxypool.sdk");
        assertEquals(
                Set.of(
                        "dev.proxypool.sdk",
                        "dev.proxypool.sdk.remote",
                        "dev.proxypool.sdk.provider",
                        "dev.proxypool.sdk.config",
                        "dev.proxypool.sdk.credentials",
                        "dev.proxypool.sdk.http",
                        "dev.proxypool.sdk.rest"),
                unqualifiedExports(sdk));
        for (ModuleDescriptor.Exports e : sdk.exports()) {
            if (e.isQualified()) {
                assertEquals(
                        Set.of("dev.proxypool.server", "dev.proxypool.cli"),
                        e.targets(),
                        e.source() + " is exported to the server and the CLI only");
            }
        }
        assertTrue(qualifiedSources(sdk).contains("dev.proxypool.sdk.engine"), "the engine, for the server");
        assertFalse(unqualifiedExports(sdk).contains("dev.proxypool.sdk.engine"));
    }

    @Test
    void coreModuleKeepsTheEngineInternalsToTheSdkServerAndCli() throws Exception {
        ModuleDescriptor core = descriptorOf(Proxy.class, "dev.proxypool.core");
        Set<String> everyone = unqualifiedExports(core);
        Set<String> implementation = Set.of("dev.proxypool.sdk", "dev.proxypool.server", "dev.proxypool.cli");
        for (String internal : Set.of("capacity", "rank", "runtime", "security", "ops", "nodes", "task")) {
            String pkg = "dev.proxypool.core." + internal;
            assertFalse(everyone.contains(pkg), pkg + " is exported to everyone");
            ModuleDescriptor.Exports e = core.exports().stream()
                    .filter(x -> x.source().equals(pkg))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(pkg + " is not exported to the sdk"));
            assertTrue(e.targets().contains("dev.proxypool.sdk"), pkg + " is for the sdk: " + e.targets());
            assertTrue(
                    implementation.containsAll(e.targets()), pkg + " goes beyond the implementation: " + e.targets());
        }
        assertTrue(
                everyone.containsAll(Set.of(
                        "dev.proxypool.core.model",
                        "dev.proxypool.core.extract",
                        "dev.proxypool.core.health",
                        "dev.proxypool.core.routing")),
                everyone.toString());
    }

    @Test
    void facadeExposesNoEngineDialerOrPipeline() {
        Set<String> methods = Arrays.stream(ProxyPool.class.getMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()))
                .map(Method::getName)
                .collect(Collectors.toCollection(TreeSet::new));
        for (String internal : Set.of("engine", "dialer", "pipeline")) {
            assertFalse(methods.contains(internal), "ProxyPool." + internal + "() is public: " + methods);
        }
        assertTrue(methods.containsAll(Set.of("acquire", "extract", "size", "inFlight")), methods.toString());
    }

    @Test
    void localAndRemoteExtractionShareOneRequestAndOneResultType() throws Exception {
        Method local = ProxyPool.class.getMethod("extract", Extraction.class);
        Method remote = DistributionClient.class.getMethod("extract", Extraction.class);
        assertEquals(ExtractionResponse.class, local.getReturnType());
        assertEquals(ExtractionResponse.class, remote.getReturnType());
    }

    @Test
    void leaseAndPoolAreInterfacesTheEngineImplementsOutsideTheApplicationSurface() throws Exception {
        ModuleDescriptor sdk = descriptorOf(ProxyPool.class, "dev.proxypool.sdk");
        for (Class<?> type : Set.of(Lease.class, ProxyPool.class)) {
            assertEquals("dev.proxypool.sdk", type.getPackageName());
            assertTrue(type.isInterface(), type + " is an interface: only the engine creates leases and pools");
        }
        try (ProxyPool pool = ProxyPool.builder().background(false).build()) {
            String impl = pool.getClass().getPackageName();
            assertFalse(unqualifiedExports(sdk).contains(impl), impl + " is exported to applications");
        }
    }

    private static ModuleDescriptor descriptorOf(Class<?> type, String module) throws URISyntaxException {
        Path classes =
                Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        return ModuleFinder.of(classes)
                .find(module)
                .orElseThrow(() -> new AssertionError(classes + " holds no module " + module))
                .descriptor();
    }

    private static Set<String> qualifiedSources(ModuleDescriptor d) {
        return d.exports().stream()
                .filter(ModuleDescriptor.Exports::isQualified)
                .map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toSet());
    }

    private static Set<String> unqualifiedExports(ModuleDescriptor d) {
        return d.exports().stream()
                .filter(e -> !e.isQualified())
                .map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toSet());
    }
}
