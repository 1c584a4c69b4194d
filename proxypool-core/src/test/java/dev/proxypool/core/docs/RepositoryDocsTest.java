package dev.proxypool.core.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The repository carries its own documentation: every relative link in every Markdown file
 * resolves to a file of the repository, and a link to a heading of a Markdown file names a
 * heading that exists (GitHub's anchor rules); no text file points at a document outside the
 * repository, and every {@code docs/<file>.md#<anchor>} cited in code or docs exists. Lives in
 * core's tests because core builds first; it reads the working tree one level above the module.
 */
class RepositoryDocsTest {

    /** {@code [text](target)} and {@code ![alt](target)}; the target ends at whitespace or ')'. */
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");

    private static List<Path> markdownFiles(Path root) throws IOException {
        return RepositoryTree.files(root).stream()
                .filter(p -> p.toString().endsWith(".md"))
                .toList();
    }

    @Test
    void everyRelativeMarkdownLinkResolves() throws IOException {
        Path root = RepositoryTree.root();
        List<Path> files = markdownFiles(root);
        assertTrue(files.size() >= 5, "expected the repository's Markdown files, found " + files);
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path md : files) {
            List<String> lines = Files.readAllLines(md);
            boolean inFence = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (FENCE.matcher(line).find()) {
                    inFence = !inFence;
                    continue;
                }
                if (inFence) {
                    continue;
                }
                Matcher m = LINK.matcher(stripInlineCode(line));
                while (m.find()) {
                    String target = m.group(1);
                    if (target.contains("://") || target.startsWith("mailto:")) {
                        continue; // external: not checked here (no network in tests)
                    }
                    checked++;
                    String problem = problem(root, md, target);
                    if (problem != null) {
                        broken.add(root.relativize(md) + ":" + (i + 1) + ": " + target + " (" + problem + ")");
                    }
                }
            }
        }
        assertTrue(checked > 0, "no relative links found at all: the scan is broken");
        assertTrue(broken.isEmpty(), "broken relative links:\n" + String.join("\n", broken));
    }

    @Test
    void theAnchorRuleFollowsGitHub() {
        assertTrue(anchorsOf(List.of(
                        "## Health states and transitions",
                        "### `server.maxConnections`",
                        "## Capacity (C)",
                        "## Capacity (C)"))
                .containsAll(
                        Set.of("health-states-and-transitions", "servermaxconnections", "capacity-c", "capacity-c-1")));
    }

    /**
     * References to documents that live outside the repository. Built by concatenation so that
     * this file does not match itself.
     */
    private static final List<String> OUTSIDE = List.of(
            "SP" + "EC §", ".." + "/shared", "BUILD" + "-NOTES", "ARCHITECTURE" + " decision", "ARCHITECTURE" + ".md");
    /** Text files checked for outside references, by extension; extensionless files only with a shebang. */
    private static final Set<String> TEXT_EXTENSIONS =
            Set.of("java", "md", "yaml", "yml", "xml", "sh", "lua", "sql", "html", "js", "css");
    /** {@code docs/design.md#capacity} cited from anywhere, relative to the repository root. */
    private static final Pattern DOCS_CITATION = Pattern.compile("(?<![\\w/.-])docs/([\\w.-]+\\.md)(?:#([\\w-]+))?");

    @Test
    void nothingPointsOutsideTheRepository() throws IOException {
        Path root = RepositoryTree.root();
        List<Path> files = textFiles(root);
        assertTrue(files.size() >= 100, "expected the repository's text files, found " + files.size());
        List<String> hits = new ArrayList<>();
        for (Path f : files) {
            List<String> lines = readLines(f);
            for (int i = 0; i < lines.size(); i++) {
                for (String pattern : OUTSIDE) {
                    if (lines.get(i).contains(pattern)) {
                        hits.add(root.relativize(f) + ":" + (i + 1) + ": " + pattern);
                    }
                }
            }
        }
        assertTrue(
                hits.isEmpty(),
                "references to documents outside the repository (cite docs/design.md#<section>, "
                        + "another file of docs/, or the owning class instead):\n" + String.join("\n", hits));
    }

    @Test
    void everyCitedDocsAnchorExists() throws IOException {
        Path root = RepositoryTree.root();
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchorsByDoc = new HashMap<>();
        int checked = 0;
        for (Path f : textFiles(root)) {
            List<String> lines = readLines(f);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = DOCS_CITATION.matcher(lines.get(i));
                while (m.find()) {
                    checked++;
                    Path doc = root.resolve("docs").resolve(m.group(1));
                    String where = root.relativize(f) + ":" + (i + 1) + ": " + m.group();
                    if (!Files.isRegularFile(doc)) {
                        broken.add(where + " (no such file)");
                    } else if (m.group(2) != null
                            && !anchorsByDoc
                                    .computeIfAbsent(doc, RepositoryDocsTest::anchorsOfFile)
                                    .contains(m.group(2))) {
                        broken.add(where + " (no heading for #" + m.group(2) + ")");
                    }
                }
            }
        }
        assertTrue(checked > 0, "no docs/ citations found at all: the scan is broken");
        assertTrue(broken.isEmpty(), "citations of docs/ that do not resolve:\n" + String.join("\n", broken));
    }

    /**
     * The git-tracked text files (Java, Markdown, YAML, XML, shell, Lua, HTML/JS/CSS, shebang
     * scripts); outside a git checkout, the same kinds of files found by walking the tree,
     * skipping {@code target/}, {@code node_modules/} and hidden directories.
     */
    private static List<Path> textFiles(Path root) throws IOException {
        List<Path> candidates = gitTrackedFiles(root);
        if (candidates == null) {
            candidates = RepositoryTree.files(root);
        }
        List<Path> out = new ArrayList<>();
        for (Path p : candidates) {
            if (Files.isRegularFile(p) && isText(p)) {
                out.add(p);
            }
        }
        out.sort(null);
        return out;
    }

    private static boolean isText(Path p) throws IOException {
        String name = p.getFileName().toString();
        int dot = name.lastIndexOf('.');
        if (dot > 0) {
            return TEXT_EXTENSIONS.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT));
        }
        try (InputStream in = Files.newInputStream(p)) {
            byte[] head = in.readNBytes(2);
            return head.length == 2 && head[0] == '#' && head[1] == '!';
        }
    }

    /** {@code git ls-files} from {@code root}, or null when git or the checkout is not there. */
    private static List<Path> gitTrackedFiles(Path root) {
        Process git;
        try {
            git = new ProcessBuilder("git", "ls-files", "-z")
                    .directory(root.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException noGit) {
            return null;
        }
        try {
            ByteArrayOutputStream listing = new ByteArrayOutputStream();
            try (InputStream in = git.getInputStream()) {
                in.transferTo(listing);
            }
            if (!git.waitFor(30, TimeUnit.SECONDS) || git.exitValue() != 0) {
                return null;
            }
            List<Path> files = new ArrayList<>();
            for (String rel : listing.toString(StandardCharsets.UTF_8).split("\0")) {
                if (!rel.isEmpty()) {
                    files.add(root.resolve(rel));
                }
            }
            return files;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while listing the repository", e);
        } finally {
            git.destroy();
        }
    }

    private static Set<String> anchorsOfFile(Path md) {
        try {
            return anchorsOf(Files.readAllLines(md));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file's lines; bytes that are not UTF-8 are replaced, never a reason to fail. */
    private static List<String> readLines(Path f) throws IOException {
        return new String(Files.readAllBytes(f), StandardCharsets.UTF_8).lines().toList();
    }

    private static String problem(Path root, Path md, String target) {
        String path = target;
        String anchor = null;
        int hash = target.indexOf('#');
        if (hash >= 0) {
            path = target.substring(0, hash);
            anchor = target.substring(hash + 1);
        }
        Path resolved = path.isEmpty() ? md : md.getParent().resolve(path).normalize();
        if (!resolved.startsWith(root)) {
            return "points outside the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (anchor != null && !anchor.isEmpty() && resolved.toString().endsWith(".md")) {
            try {
                if (!anchorsOf(Files.readAllLines(resolved)).contains(anchor)) {
                    return "no heading for #" + anchor;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return null;
    }

    /** GitHub's heading anchors: lower case, punctuation other than '-' and '_' dropped, spaces to '-', repeats numbered. */
    static Set<String> anchorsOf(List<String> lines) {
        Set<String> anchors = new HashSet<>();
        boolean inFence = false;
        for (String line : lines) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
                continue;
            }
            if (inFence) {
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (!h.matches()) {
                continue;
            }
            String text =
                    h.group(1).replaceAll("\\[([^\\]]*)]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
            StringBuilder slug = new StringBuilder();
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                    slug.append(c);
                } else if (c == ' ') {
                    slug.append('-');
                }
            }
            String base = slug.toString();
            String candidate = base;
            for (int n = 1; !anchors.add(candidate); n++) {
                candidate = base + "-" + n;
            }
        }
        return anchors;
    }

    private static String stripInlineCode(String line) {
        return line.replaceAll("`[^`]*`", "");
    }
}
