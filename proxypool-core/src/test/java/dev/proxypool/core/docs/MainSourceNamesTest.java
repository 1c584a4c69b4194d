package dev.proxypool.core.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
 * Names in the main sources of every module: no two classes share a simple name (so a name in a
 * stack trace, a log or a document says which class it is), and code names a type through an
 * import, keeping a fully-qualified name only where the file already uses that simple name for
 * another type. Reads the working tree one level above the module, like {@link RepositoryDocsTest}.
 */
class MainSourceNamesTest {

    private static final Pattern QUALIFIED =
            Pattern.compile("(?<![\\w.$])(?:java|javax|io|dev|redis|org|com)((?:\\.[a-z0-9_]+)+)\\.([A-Z]\\w*)");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import\\s+(static\\s+)?([\\w.]+)\\s*;");
    private static final Pattern DECLARED = Pattern.compile("\\b(?:class|interface|record|enum)\\s+([A-Z]\\w*)");
    private static final Pattern HEADER_LINE = Pattern.compile("(?m)^\\s*(?:import|package)\\b.*$");

    /** Every {@code .java} file under a {@code src/main/java} directory, outside build output. */
    private static List<Path> mainSources(Path root) throws IOException {
        return RepositoryTree.files(root).stream()
                .filter(p -> p.toString().endsWith(".java"))
                .filter(p -> root.relativize(p).toString().replace('\\', '/').contains("/src/main/java/"))
                .filter(p -> {
                    String n = p.getFileName().toString();
                    return !n.equals("package-info.java") && !n.equals("module-info.java");
                })
                .toList();
    }

    @Test
    void noTwoMainClassesShareASimpleName() throws IOException {
        Path root = RepositoryTree.root();
        Map<String, List<String>> byName = new TreeMap<>();
        List<Path> sources = mainSources(root);
        assertTrue(sources.size() > 100, "main sources not found under " + root);
        for (Path p : sources) {
            byName.computeIfAbsent(p.getFileName().toString(), k -> new ArrayList<>())
                    .add(root.relativize(p).toString());
        }
        List<String> clashes = new ArrayList<>();
        byName.forEach((name, paths) -> {
            if (paths.size() > 1) {
                clashes.add(name + ": " + paths);
            }
        });
        assertTrue(
                clashes.isEmpty(), "main classes sharing a simple name (rename one):\n" + String.join("\n", clashes));
    }

    @Test
    void mainCodeNamesTypesThroughImports() throws IOException {
        Path root = RepositoryTree.root();
        List<String> hits = new ArrayList<>();
        for (Path p : mainSources(root)) {
            String src = Files.readString(p, StandardCharsets.UTF_8);
            String code = HEADER_LINE.matcher(codeOnly(src)).replaceAll("");
            Set<String> taken = new HashSet<>();
            Matcher d = DECLARED.matcher(code);
            while (d.find()) {
                taken.add(d.group(1));
            }
            Set<String> imported = new HashSet<>();
            Matcher i = IMPORT.matcher(src);
            while (i.find()) {
                if (i.group(1) == null) {
                    imported.add(i.group(2));
                }
            }
            Matcher m = QUALIFIED.matcher(code);
            while (m.find()) {
                String simple = m.group(2);
                String qualified = m.group();
                boolean clash = taken.contains(simple)
                        || Files.isRegularFile(p.resolveSibling(simple + ".java"))
                        || imported.stream().anyMatch(n -> n.endsWith("." + simple) && !n.equals(qualified));
                if (!clash) {
                    int line = 1
                            + (int) code.substring(0, m.start())
                                    .chars()
                                    .filter(c -> c == '\n')
                                    .count();
                    hits.add(root.relativize(p) + ":" + line + " " + qualified);
                }
            }
        }
        assertTrue(
                hits.isEmpty(), "fully-qualified type names in main code (import them):\n" + String.join("\n", hits));
    }

    /** Every package of main code says what it owns in a {@code package-info.java}. */
    @Test
    void everyMainPackageHasAPackageInfo() throws IOException {
        Path root = RepositoryTree.root();
        Set<Path> packages = new TreeSet<>();
        for (Path p : mainSources(root)) {
            packages.add(p.getParent());
        }
        List<String> missing = new ArrayList<>();
        for (Path dir : packages) {
            if (!Files.isRegularFile(dir.resolve("package-info.java"))) {
                missing.add(root.relativize(dir).toString());
            }
        }
        assertTrue(missing.isEmpty(), "packages without a package-info.java:\n" + String.join("\n", missing));
    }

    /**
     * One logging API in main code: {@code System.Logger}, which Helidon uses too (its default
     * backend is java.util.logging, so one logging configuration covers the product and Helidon).
     * No code logs through java.util.logging, SLF4J, Log4j or Commons Logging directly.
     */
    @Test
    void mainCodeLogsThroughSystemLoggerOnly() throws IOException {
        Path root = RepositoryTree.root();
        Pattern other = Pattern.compile("(?m)^import\\s+(?:static\\s+)?(java\\.util\\.logging|org\\.slf4j"
                + "|org\\.apache\\.logging|org\\.apache\\.commons\\.logging|org\\.apache\\.log4j)\\.");
        List<String> hits = new ArrayList<>();
        for (Path p : mainSources(root)) {
            String src = Files.readString(p, StandardCharsets.UTF_8);
            Matcher m = other.matcher(src);
            while (m.find()) {
                hits.add(root.relativize(p) + ": " + m.group(1));
            }
            if (HEADER_LINE.matcher(codeOnly(src)).replaceAll("").contains("java.util.logging.")) {
                hits.add(root.relativize(p) + ": java.util.logging named inline");
            }
        }
        assertTrue(
                hits.isEmpty(),
                "main code logging through another API than System.Logger:\n" + String.join("\n", hits));
    }

    /**
     * The source with comments, string and character literals and text blocks blanked out
     * (newlines kept, so line numbers still match).
     */
    static String codeOnly(String src) {
        StringBuilder out = new StringBuilder(src.length());
        int n = src.length();
        int i = 0;
        while (i < n) {
            int end;
            if (src.startsWith("//", i)) {
                end = src.indexOf('\n', i);
                end = end < 0 ? n : end;
            } else if (src.startsWith("/*", i)) {
                end = src.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
            } else if (src.startsWith("\"\"\"", i)) {
                end = src.indexOf("\"\"\"", i + 3);
                while (end > 0 && src.charAt(end - 1) == '\\') {
                    end = src.indexOf("\"\"\"", end + 1);
                }
                end = end < 0 ? n : end + 3;
            } else if (src.charAt(i) == '"' || src.charAt(i) == '\'') {
                char quote = src.charAt(i);
                end = i + 1;
                while (end < n && src.charAt(end) != quote && src.charAt(end) != '\n') {
                    end += src.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(n, end + 1);
            } else {
                out.append(src.charAt(i++));
                continue;
            }
            for (int k = i; k < end; k++) {
                out.append(src.charAt(k) == '\n' ? '\n' : ' ');
            }
            i = end;
        }
        return out.toString();
    }
}
