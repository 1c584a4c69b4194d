package dev.proxypool.examples;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.Selection;
import dev.proxypool.sdk.provider.FetchReport;
import dev.proxypool.sdk.provider.ProviderAdapter;
import dev.proxypool.sdk.provider.ProviderRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A provider adapter of the application's own, registered explicitly in code and enabled by the
 * config naming its type (nothing is discovered by scanning). Vendor fields end in the adapter:
 * the core only ever sees normalized {@link Proxy} candidates.
 */
public final class CustomProviderExample {

    private CustomProviderExample() {}

    /** The adapter: here it "fetches" from an in-house registry; a real one would call the vendor. */
    static ProviderAdapter inHouseRegistry(String provider, int size) {
        return context -> {
            List<Proxy> candidates = new ArrayList<>();
            for (int i = 1; i <= size; i++) {
                candidates.add(Proxy.builder(new ProxyKey(Protocol.SOCKS5, "198.51.100." + i, 1080, CredentialRef.NONE))
                        .provider(provider)
                        .upstream(context.upstream())
                        .build());
            }
            return FetchReport.of(provider, context.upstream(), candidates, Duration.ZERO);
        };
    }

    public static int run(Path workDir) throws IOException {
        Path config = workDir.resolve("proxypool.yaml");
        Files.writeString(config, """
                providers: [{ name: in-house, type: in_house_registry }]
                upstreams: [{ name: in-house, provider: in-house, validate: false }]
                """);
        ProviderRegistry registry = ProviderRegistry.builtIns()
                .register("in_house_registry", (providerConfig, env) -> inHouseRegistry(providerConfig.name(), 3))
                .enable("in_house_registry")
                .build();
        try (ProxyPool pool = ProxyPool.builder()
                        .config(config)
                        .providerRegistry(registry)
                        .background(false)
                        .build();
                Lease lease = pool.acquire(Selection.forHost("api.example"))) {
            lease.succeeded(Duration.ofMillis(50));
            return pool.size();
        }
    }

    public static void main(String[] args) throws IOException {
        Path dir = Files.createTempDirectory("proxypool-example");
        System.out.println("proxies from the custom provider: " + run(dir));
    }
}
