package dev.proxypool.core.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The repository carries its own documentation: every relative link in every Markdown file
 * resolves to a file of the repository, and a link to a heading of a Markdown file names a
 * heading that exists (GitHub's anchor rules). Lives in core's tests because core builds first;
 * it reads the working tree one level above the module.
 */
class RepositoryDocsTest {

    /** {@code [text](target)} and {@code ![alt](target)}; the target ends at whitespace or ')'. */
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");

    private static Path repositoryRoot() {
        Path here = Path.of("").toAbsolutePath();
        for (Path p = here; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("proxypool-core"))) {
                return p;
            }
        }
        throw new IllegalStateException("repository root not found above " + here);
    }

    private static List<Path> markdownFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> {
                        Path rel = root.relativize(p);
                        for (Path part : rel) {
                            String n = part.toString();
                            if (n.equals("target") || n.equals("node_modules") || n.startsWith(".")) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .sorted()
                    .toList();
        }
    }

    @Test
    void everyRelativeMarkdownLinkResolves() throws IOException {
        Path root = repositoryRoot();
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
        assertTrue(anchorsOf(List.of("## Health states and transitions", "### `server.maxConnections`",
                "## Capacity (C)", "## Capacity (C)")).containsAll(
                Set.of("health-states-and-transitions", "servermaxconnections", "capacity-c", "capacity-c-1")));
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
            String text = h.group(1).replaceAll("\\[([^\\]]*)]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
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
