package dev.proxypool.core.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * The module graph of docs/architecture.md#dependency-direction, read from the poms and the main
 * sources: core depends on no project module; sdk on core; server on sdk and core; the CLI on the
 * server, sdk and core, plus the examples at runtime only ({@code proxypool example} loads their
 * programs by class name). The test kit, the examples and the benchmarks are never a compile-scope
 * dependency of a product module, and no product main source imports a package of a module it may
 * not compile against.
 */
class ModuleGraphTest {

    /** A project module: its directory (= artifactId) and the package prefix its main code declares. */
    private record Module(String artifact, String packagePrefix) {}

    private static final Module CORE = new Module("proxypool-core", "dev.proxypool.core");
    private static final Module SDK = new Module("proxypool-sdk", "dev.proxypool.sdk");
    private static final Module SERVER = new Module("proxypool-server", "dev.proxypool.server");
    private static final Module CLI = new Module("proxypool-cli", "dev.proxypool.cli");
    private static final Module TESTKIT = new Module("proxypool-testkit", "dev.proxypool.testkit");
    private static final Module EXAMPLES = new Module("examples", "dev.proxypool.examples");
    private static final Module BENCHMARKS = new Module("benchmarks", "dev.proxypool.benchmarks");
    /** The release tarball: no main code, its pom ships the CLI. */
    private static final Module DIST = new Module("proxypool-dist", "dev.proxypool.dist");

    private static final List<Module> ALL = List.of(CORE, SDK, SERVER, CLI, TESTKIT, EXAMPLES, BENCHMARKS, DIST);

    /** Product module -> the project modules it may compile against (transitively reached ones included). */
    private static final Map<Module, Set<Module>> COMPILE = Map.of(
            CORE, Set.of(),
            SDK, Set.of(CORE),
            SERVER, Set.of(SDK, CORE),
            CLI, Set.of(SERVER, SDK, CORE));
    /** Product module -> project modules it may have at runtime scope only (shipped, never compiled against). */
    private static final Map<Module, Set<Module>> RUNTIME_ONLY = Map.of(CLI, Set.of(EXAMPLES));

    private static final Pattern IMPORT =
            Pattern.compile("(?m)^import\\s+(?:static\\s+)?(dev\\.proxypool\\.[\\w.]+)\\s*;");

    @Test
    void theProjectHasTheModulesThisTestKnows() throws Exception {
        Document root = parse(Files.readString(RepositoryTree.root().resolve("pom.xml")));
        List<String> modules = new ArrayList<>();
        for (Element m : children(child(root.getDocumentElement(), "modules"), "module")) {
            modules.add(m.getTextContent().strip());
        }
        assertEquals(
                ALL.stream().map(Module::artifact).sorted().toList(),
                modules.stream().sorted().toList(),
                "a module was added or removed: place it in this test's graph and in docs/architecture.md");
    }

    @Test
    void productModulesDependOnTheProjectOnlyDownTheGraph() throws Exception {
        Path root = RepositoryTree.root();
        List<String> violations = new ArrayList<>();
        for (Module m : COMPILE.keySet()) {
            violations.addAll(
                    pomViolations(m, Files.readString(root.resolve(m.artifact()).resolve("pom.xml"))));
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void productMainSourcesImportOnlyWhatTheirModuleMayCompileAgainst() throws IOException {
        Path root = RepositoryTree.root();
        List<String> violations = new ArrayList<>();
        int files = 0;
        for (Module m : COMPILE.keySet()) {
            String main = m.artifact() + "/src/main/java/";
            for (Path p : RepositoryTree.files(root)) {
                String rel = root.relativize(p).toString().replace('\\', '/');
                if (rel.startsWith(main) && rel.endsWith(".java")) {
                    files++;
                    violations.addAll(importViolations(m, rel, Files.readString(p, StandardCharsets.UTF_8)));
                }
            }
        }
        assertTrue(files > 100, "product main sources not found under " + root);
        assertEquals(List.of(), violations);
    }

    /** The checks themselves: what they must reject, on the shapes the CLI's pom and sources had before. */
    @Test
    void theChecksRejectACompileScopeTestKitAndAnImportOfTheExamples() throws Exception {
        String pom = """
                <project><artifactId>proxypool-cli</artifactId><dependencies>
                  <dependency><groupId>dev.proxypool</groupId><artifactId>proxypool-server</artifactId></dependency>
                  <dependency><groupId>dev.proxypool</groupId><artifactId>proxypool-testkit</artifactId></dependency>
                  <dependency><groupId>${project.groupId}</groupId><artifactId>examples</artifactId>
                    <version>${project.version}</version></dependency>
                  <dependency><groupId>dev.proxypool</groupId><artifactId>benchmarks</artifactId><scope>test</scope></dependency>
                </dependencies></project>
                """;
        assertEquals(
                List.of(
                        "proxypool-cli depends on proxypool-testkit at compile scope (allowed: test scope only)",
                        "proxypool-cli depends on examples at compile scope (allowed: runtime, test)"),
                pomViolations(CLI, pom));
        assertEquals(
                List.of("proxypool-core depends on proxypool-sdk at runtime scope (allowed: test scope only)"),
                pomViolations(
                        CORE,
                        "<project><dependencies><dependency><groupId>dev.proxypool</groupId>"
                                + "<artifactId>proxypool-sdk</artifactId><scope>runtime</scope></dependency></dependencies></project>"));
        assertEquals(
                List.of(
                        "X.java imports dev.proxypool.examples.EmbeddedPoolExample (proxypool-cli may not compile "
                                + "against examples)",
                        "X.java imports dev.proxypool.testkit.FakeOrigin (proxypool-cli may not "
                                + "compile against proxypool-testkit)"),
                importViolations(CLI, "X.java", """
                        package dev.proxypool.cli;
                        import dev.proxypool.sdk.ProxyPool;
                        import dev.proxypool.examples.EmbeddedPoolExample;
                        import static dev.proxypool.server.ProxyPoolServer.builder;
                        import dev.proxypool.testkit.FakeOrigin;
                        """));
    }

    /** What in {@code module}'s pom breaks the graph: a project dependency outside its allowed scopes. */
    private static List<String> pomViolations(Module module, String pomXml) throws Exception {
        List<String> found = new ArrayList<>();
        Element project = parse(pomXml).getDocumentElement();
        for (Element d : children(child(project, "dependencies"), "dependency")) {
            String group = text(d, "groupId", "");
            if (!group.equals("dev.proxypool") && !group.equals("${project.groupId}")) {
                continue;
            }
            Module target = byArtifact(text(d, "artifactId", ""));
            String scope = text(d, "scope", "compile");
            if (target == null || scope.equals("test")) {
                continue;
            }
            boolean compiles = scope.equals("compile") || scope.equals("provided");
            Set<Module> runtimeOnly = RUNTIME_ONLY.getOrDefault(module, Set.of());
            boolean allowed = COMPILE.get(module).contains(target) || (!compiles && runtimeOnly.contains(target));
            if (!allowed) {
                String may = runtimeOnly.contains(target) ? "runtime, test" : "test scope only";
                found.add(module.artifact() + " depends on " + target.artifact() + " at " + scope + " scope (allowed: "
                        + may + ")");
            }
        }
        return found;
    }

    /** What in one main source of {@code module} breaks the graph: an import of a module it may not compile against. */
    private static List<String> importViolations(Module module, String file, String source) {
        List<String> found = new ArrayList<>();
        Matcher m = IMPORT.matcher(source);
        while (m.find()) {
            String imported = m.group(1);
            Module owner = null;
            for (Module candidate : ALL) {
                if (imported.startsWith(candidate.packagePrefix() + ".")) {
                    owner = candidate;
                }
            }
            if (owner != null && owner != module && !COMPILE.get(module).contains(owner)) {
                found.add(file + " imports " + imported + " (" + module.artifact() + " may not compile against "
                        + owner.artifact() + ")");
            }
        }
        return found;
    }

    private static Module byArtifact(String artifact) {
        return ALL.stream()
                .filter(m -> m.artifact().equals(artifact))
                .findFirst()
                .orElse(null);
    }

    private static Document parse(String xml) throws ParserConfigurationException, SAXException, IOException {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        return f.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    /** The direct child element {@code name}, or null. */
    private static Element child(Element parent, String name) {
        List<Element> all = children(parent, name);
        return all.isEmpty() ? null : all.getFirst();
    }

    /** The direct child elements named {@code name}; none when {@code parent} is null. */
    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        if (parent != null) {
            for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && e.getTagName().equals(name)) {
                    found.add(e);
                }
            }
        }
        return found;
    }

    private static String text(Element parent, String name, String otherwise) {
        Element e = child(parent, name);
        return e == null ? otherwise : e.getTextContent().strip();
    }
}
