package dev.proxypool.core.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A configuration key named in the main sources is a key of {@code docs/configuration.md}: every string
 * literal of every module's main sources is searched for a dotted key of a top-level section of the file
 * ({@code gateway.ioTimeout}, {@code store.index.dimensions}), and each one must be documented there, as a
 * key or as the section holding keys ({@code admin.flags}). A message that names a key a user cannot write
 * ({@code gateway.maxHeaderBytes}, {@code store.connectTimeout}) fails it: a value that is not a configuration
 * key is named by its component ({@code GatewayConfig.maxHeaderBytes}). Reads the working tree one level
 * above the module, like {@link RepositoryDocsTest}.
 */
class ConfigKeyNamesTest {

    /** {@code ## server}: a top-level section of {@code proxypool.yaml} (the list sections have a suffix). */
    private static final Pattern SECTION = Pattern.compile("(?m)^## ([a-z]+)\\s*$");

    private static final Pattern STRING_LITERAL = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");

    /** {@code `health.cooldown.initial` / `.max`}: the second key is written as a suffix. */
    private static final Pattern SUFFIX_KEY =
            Pattern.compile("`([a-z]+(?:\\.[A-Za-z0-9]+)+)`\\s*/\\s*`\\.([A-Za-z0-9]+)`");

    /** Names of files, not keys ({@code cluster.yaml}, {@code gateway.pem}). */
    private static final Set<String> FILE_EXTENSIONS =
            Set.of("yaml", "yml", "properties", "pem", "key", "crt", "conf", "json", "jsonl", "txt", "csv", "md");

    private static Pattern keyPattern(Set<String> sections) {
        return Pattern.compile(
                "(?<![\\w.$/-])(?:" + String.join("|", sections) + ")(?:\\.[A-Za-z][A-Za-z0-9]*)+(?![\\w-])");
    }

    @Test
    void everyKeyAMainSourceNamesIsDocumented() throws IOException {
        Path root = RepositoryTree.root();
        String doc = Files.readString(root.resolve("docs/configuration.md"));
        Set<String> sections = new TreeSet<>();
        Matcher s = SECTION.matcher(doc);
        while (s.find()) {
            sections.add(s.group(1));
        }
        assertTrue(
                sections.containsAll(Set.of("server", "store", "gateway", "cluster", "health", "pipeline")),
                "sections of docs/configuration.md not found: " + sections);
        Pattern key = keyPattern(sections);
        Set<String> documented = new HashSet<>();
        Matcher d = key.matcher(doc);
        while (d.find()) {
            documented.add(d.group());
        }
        Matcher suffix = SUFFIX_KEY.matcher(doc);
        while (suffix.find()) {
            String first = suffix.group(1);
            documented.add(first.substring(0, first.lastIndexOf('.') + 1) + suffix.group(2));
        }

        Map<String, Set<String>> undocumented = new TreeMap<>();
        int named = 0;
        for (Path p : mainSources(root)) {
            Matcher lit = STRING_LITERAL.matcher(Files.readString(p));
            while (lit.find()) {
                Matcher k = key.matcher(lit.group(1));
                while (k.find()) {
                    String name = k.group();
                    if (FILE_EXTENSIONS.contains(name.substring(name.lastIndexOf('.') + 1))) {
                        continue;
                    }
                    named++;
                    if (!isDocumented(name, documented)) {
                        undocumented
                                .computeIfAbsent(name, x -> new TreeSet<>())
                                .add(root.relativize(p).toString());
                    }
                }
            }
        }
        assertTrue(named > 50, "only " + named + " configuration keys found in the main sources: the scan is broken");
        List<String> lines = new ArrayList<>();
        undocumented.forEach((k, files) -> lines.add(k + " in " + files));
        assertTrue(
                undocumented.isEmpty(),
                "main sources name configuration keys that docs/configuration.md does not document (name a value"
                        + " that is no key by its component, e.g. GatewayConfig.maxHeaderBytes):\n"
                        + String.join("\n", lines));
    }

    @Test
    void theScanFindsAKeyThatDoesNotExist() {
        Pattern key = keyPattern(Set.of("gateway", "store"));
        Set<String> documented = Set.of("gateway.ioTimeout", "store.index.dimensions");
        Matcher m = key.matcher("gateway.maxHeaderBytes must be between 1024 and 16777216, got 3");
        assertTrue(m.find() && !isDocumented(m.group(), documented), "an undocumented key passes");
        assertTrue(isDocumented("store.index", documented), "a section holding keys is refused");
        assertTrue(isDocumented("gateway.ioTimeout", documented), "a documented key is refused");
        assertTrue(!key.matcher("dev.proxypool.gateway.epoll").find(), "a qualified name is read as a key");
    }

    private static boolean isDocumented(String name, Set<String> documented) {
        if (documented.contains(name)) {
            return true;
        }
        for (String k : documented) {
            if (k.startsWith(name + ".")) {
                return true;
            }
        }
        return false;
    }

    /** Every {@code .java} file under a {@code src/main/java} directory, outside build output. */
    private static List<Path> mainSources(Path root) throws IOException {
        return RepositoryTree.files(root).stream()
                .filter(p -> p.toString().endsWith(".java"))
                .filter(p -> root.relativize(p).toString().replace('\\', '/').contains("/src/main/java/"))
                .toList();
    }
}
