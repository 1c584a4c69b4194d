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
        assertTrue(
                sdk.exports().stream().noneMatch(ModuleDescriptor.Exports::isQualified),
                "the sdk exports nothing to particular modules");
        assertFalse(unqualifiedExports(sdk).contains("dev.proxypool.sdk.engine"));
        assertFalse(unqualifiedExports(sdk).contains("dev.proxypool.sdk.internal"));
    }

    @Test
    void coreModuleKeepsTheEngineInternalsToTheSdk() throws Exception {
        ModuleDescriptor core = descriptorOf(Proxy.class, "dev.proxypool.core");
        Set<String> everyone = unqualifiedExports(core);
        for (String internal : Set.of("capacity", "rank", "runtime", "security", "ops")) {
            String pkg = "dev.proxypool.core." + internal;
            assertFalse(everyone.contains(pkg), pkg + " is exported to everyone");
            ModuleDescriptor.Exports e = core.exports().stream()
                    .filter(x -> x.source().equals(pkg))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(pkg + " is not exported to the sdk"));
            assertEquals(Set.of("dev.proxypool.sdk"), e.targets(), pkg);
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
    void leaseLivesInTheSdkPackageWithoutAPublicConstructor() {
        assertEquals("dev.proxypool.sdk", Lease.class.getPackageName());
        assertEquals(0, Lease.class.getConstructors().length, "only the engine creates leases");
    }

    private static ModuleDescriptor descriptorOf(Class<?> type, String module) throws URISyntaxException {
        Path classes =
                Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        return ModuleFinder.of(classes)
                .find(module)
                .orElseThrow(() -> new AssertionError(classes + " holds no module " + module))
                .descriptor();
    }

    private static Set<String> unqualifiedExports(ModuleDescriptor d) {
        return d.exports().stream()
                .filter(e -> !e.isQualified())
                .map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toSet());
    }
}
