package dev.proxypool.core.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The repository's working tree as the repository checks read it: its root and its files, build output left out. */
final class RepositoryTree {

    private RepositoryTree() {}

    /** The directory above the module holding {@code README.md} and {@code proxypool-core}. */
    static Path root() {
        Path here = Path.of("").toAbsolutePath();
        for (Path p = here; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("proxypool-core"))) {
                return p;
            }
        }
        throw new IllegalStateException("repository root not found above " + here);
    }

    /** Every regular file below {@code root}, sorted, outside {@code target/}, {@code node_modules/} and hidden directories. */
    static List<Path> files(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> {
                        Path rel = root.relativize(p);
                        for (int i = 0; i < rel.getNameCount() - 1; i++) {
                            String n = rel.getName(i).toString();
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
}
