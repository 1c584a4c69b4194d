package dev.proxypool.sdk.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.core.time.ManualClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Shared fixtures: a manual clock, an injected environment, resources, quick adapter creation. */
final class Fx {

    static final Set<String> ALL_TYPES =
            Set.of("jsonl_inventory", "http_json_feed", "text_list", "csv", "session_gateway");

    final ManualClock clock = new ManualClock();
    final Map<String, String> env = new HashMap<>();
    final dev.proxypool.sdk.credentials.InlineCredentials inline =
            new dev.proxypool.sdk.credentials.InlineCredentials();
    final Path dir;

    Fx(Path dir) {
        this.dir = dir;
    }

    ProviderEnvironment environment() {
        return new ProviderEnvironment(env, dir, clock, clock, inline);
    }

    ProviderAdapter adapter(String name, String type, Map<String, String> settings, Map<String, String> fields) {
        return ProviderRegistry.standard(ALL_TYPES)
                .create(new ProviderConfig(name, type, settings, fields), environment());
    }

    ProviderAdapter adapter(String type, Map<String, String> settings) {
        return adapter("p", type, settings, Map.of());
    }

    /** Copies a test resource under provider/ into the temp dir and returns its file name. */
    String resource(String name) {
        try (InputStream in = Fx.class.getResourceAsStream("/provider/" + name)) {
            Files.copy(in, dir.resolve(name));
            return name;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String file(String name, String content) {
        try {
            Files.writeString(dir.resolve(name), content);
            return name;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static FetchReport fetch(ProviderAdapter adapter) {
        return adapter.fetch(FetchContext.of("up", Map.of()));
    }

    static FetchReport fetch(ProviderAdapter adapter, Map<String, String> params) {
        return adapter.fetch(FetchContext.of("up", params));
    }

    static void assertError(FetchOutcome.ErrorKind kind, FetchReport report) {
        FetchOutcome.Error e = assertInstanceOf(FetchOutcome.Error.class, report.outcome(), report::toString);
        assertEquals(kind, e.kind(), report::toString);
        assertEquals(List.of(), report.candidates());
    }

    static List<String> hosts(FetchReport report) {
        return report.candidates().stream().map(Proxy::host).toList();
    }
}
