package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java as a reader copies it: every {@code ```java} block compiled with javac against the
 * SDK, its {@code import} lines as the file's imports and the rest as the body of a method that may
 * throw. A snippet that catches an exception nothing throws, calls a method that does not exist or
 * uses an API the SDK no longer has fails here.
 */
class ReadmeSnippetsTest {

    @TempDir
    Path out;

    @Test
    void everyJavaBlockOfTheReadmeCompilesAgainstTheSdk() throws IOException {
        List<String> blocks = javaBlocks(Files.readString(readme()));
        assertFalse(blocks.isEmpty(), "the README has Java blocks");
        List<JavaFileObject> sources = new ArrayList<>();
        for (int i = 0; i < blocks.size(); i++) {
            sources.add(source("ReadmeSnippet" + i, blocks.get(i)));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "a JDK with javac");
        StringWriter diagnostics = new StringWriter();
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
            List<String> options = List.of(
                    "-proc:none", "-d", out.toString(), "-classpath", String.join(File.pathSeparator, classPath()));
            boolean ok = javac.getTask(diagnostics, files, null, options, null, sources)
                    .call();
            assertTrue(ok, "the README's Java does not compile:\n" + diagnostics);
        }
        assertEquals(blocks.size(), sources.size());
    }

    /** The blocks between {@code ```java} and {@code ```}. */
    static List<String> javaBlocks(String markdown) {
        List<String> blocks = new ArrayList<>();
        StringBuilder current = null;
        for (String line : markdown.lines().toList()) {
            if (current == null && line.strip().equals("```java")) {
                current = new StringBuilder();
            } else if (current != null && line.strip().equals("```")) {
                blocks.add(current.toString());
                current = null;
            } else if (current != null) {
                current.append(line).append('\n');
            }
        }
        return blocks;
    }

    private static JavaFileObject source(String name, String block) {
        StringBuilder imports = new StringBuilder();
        StringBuilder body = new StringBuilder();
        for (String line : block.lines().toList()) {
            (line.startsWith("import ") ? imports : body).append(line).append('\n');
        }
        String code = imports + "\nfinal class " + name + " {\n    static void snippet() throws Exception {\n" + body
                + "    }\n}\n";
        return new SimpleJavaFileObject(URI.create("string:///" + name + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return code;
            }
        };
    }

    /** This test's class path and module path: the SDK, core and their dependencies. */
    private static Set<String> classPath() {
        Set<String> entries = new LinkedHashSet<>();
        for (String property : List.of("java.class.path", "jdk.module.path")) {
            String value = System.getProperty(property);
            if (value != null && !value.isBlank()) {
                entries.addAll(List.of(value.split(File.pathSeparator)));
            }
        }
        return entries;
    }

    private static Path readme() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("proxypool-sdk"))) {
                return p.resolve("README.md");
            }
        }
        throw new IllegalStateException(
                "README.md not found above " + Path.of("").toAbsolutePath());
    }
}
