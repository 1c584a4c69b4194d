package dev.proxypool.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The examples are what an embedding application writes, so they may use the public SDK surface
 * only (docs/architecture.md#public-sdk-surface): the facade {@code dev.proxypool.sdk}, the remote client
 * {@code dev.proxypool.sdk.remote}, the provider SPI {@code dev.proxypool.sdk.provider}, the core's
 * value types {@code dev.proxypool.core.model}, and the JDK. Every import and every other mention of
 * a project package in the examples' main sources is checked.
 */
class PublicSurfaceOnlyTest {

    /** The project packages an application needs; nothing else of the project. */
    static final Set<String> PUBLIC_PACKAGES = Set.of(
            "dev.proxypool.sdk",
            "dev.proxypool.sdk.remote",
            "dev.proxypool.sdk.provider",
            "dev.proxypool.core.model",
            "dev.proxypool.examples");

    private static final Pattern IMPORT =
            Pattern.compile("(?m)^\\s*import\\s+(?:static\\s+)?([\\w.]+?)(?:\\.\\*)?\\s*;");
    /** A project package: {@code dev.proxypool} and its lower-case segments, up to a type name or the end. */
    private static final Pattern PROJECT_PACKAGE = Pattern.compile("\\bdev\\.proxypool(?:\\.[a-z_][a-z0-9_]*)*");

    @Test
    void examplesUseOnlyThePublicSdkSurface() throws IOException {
        Path sources = Path.of("src", "main", "java", "dev", "proxypool", "examples");
        List<Path> files;
        try (Stream<Path> s = Files.walk(sources)) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertTrue(files.size() >= 4, "no example sources under " + sources.toAbsolutePath());
        List<String> violations = new ArrayList<>();
        for (Path file : files) {
            violations.addAll(violations(file.getFileName().toString(), Files.readString(file)));
        }
        assertEquals(List.of(), violations, "examples reach past the public surface " + PUBLIC_PACKAGES);
    }

    @Test
    void theCheckCatchesInternalImportsQualifiedNamesAndThirdPartyTypes() {
        String source = """
                package dev.proxypool.examples;

                import dev.proxypool.sdk.ProxyPool;
                import dev.proxypool.core.model.Proxy;
                import java.util.List;
                import dev.proxypool.core.health.FailureKind;
                import static dev.proxypool.sdk.config.ConfigLoader.load;
                import io.helidon.webclient.api.WebClient;

                class X {
                    dev.proxypool.sdk.engine.PoolEngine engine;
                }
                """;
        assertEquals(
                List.of(
                        "X.java imports dev.proxypool.core.health.FailureKind",
                        "X.java imports dev.proxypool.sdk.config.ConfigLoader.load",
                        "X.java imports io.helidon.webclient.api.WebClient",
                        "X.java names dev.proxypool.sdk.engine"),
                violations("X.java", source));
    }

    /** What {@code source} uses beyond the public surface, one line each. */
    static List<String> violations(String name, String source) {
        List<String> found = new ArrayList<>();
        Matcher imports = IMPORT.matcher(source);
        while (imports.find()) {
            String imported = imports.group(1);
            if (!(imported.startsWith("java.")
                    || imported.startsWith("javax.")
                    || PUBLIC_PACKAGES.contains(packageOf(imported)))) {
                found.add(name + " imports " + imported);
            }
        }
        String body = IMPORT.matcher(source).replaceAll("");
        Matcher mentions = PROJECT_PACKAGE.matcher(body);
        while (mentions.find()) {
            if (!PUBLIC_PACKAGES.contains(mentions.group())) {
                found.add(name + " names " + mentions.group());
            }
        }
        return found;
    }

    /** The package of an imported name: its segments up to the first that starts upper-case. */
    private static String packageOf(String imported) {
        StringBuilder pkg = new StringBuilder();
        for (String segment : imported.split("\\.")) {
            if (!segment.isEmpty() && Character.isUpperCase(segment.charAt(0))) {
                break;
            }
            pkg.append(pkg.isEmpty() ? "" : ".").append(segment);
        }
        return pkg.toString();
    }
}
