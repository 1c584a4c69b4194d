package dev.proxypool.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps tests off fixed sleeps: in every module's test sources and in the test kit itself, a
 * {@code Thread.sleep(} must carry a {@code //} comment on its line saying why the pause is the
 * behaviour under test. A wait for something to happen is {@link Await}; an intended pause is
 * {@link Pace#sleep}. So {@code grep -rn "Thread.sleep(" --include=*.java} finds only explained pauses.
 */
class NoBareSleepInTestsTest {

    /** Written in two parts so this file does not match itself. */
    private static final String SLEEP_CALL = "Thread" + ".sleep(";

    @Test
    void everyThreadSleepInTestCodeIsAnExplainedPause() throws IOException {
        Path root = repositoryRoot();
        List<Path> sourceRoots = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            modules.map(m -> m.resolve("src/test/java"))
                    .filter(Files::isDirectory)
                    .forEach(sourceRoots::add);
        }
        sourceRoots.add(root.resolve("proxypool-testkit/src/main/java"));
        assertTrue(
                sourceRoots.size() >= 5,
                "sanity: the modules' test sources were found under " + root + ": " + sourceRoots);
        List<String> bare = new ArrayList<>();
        int scanned = 0;
        for (Path sources : sourceRoots) {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(sources, 32)) {
                files = walk.filter(p -> p.toString().endsWith(".java")).toList();
            }
            for (Path f : files) {
                scanned++;
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i);
                    int at = line.indexOf(SLEEP_CALL);
                    if (at >= 0
                            && line.indexOf("//", at) < 0
                            && !line.stripLeading().startsWith("*")) {
                        bare.add(root.relativize(f) + ":" + (i + 1) + ": " + line.strip());
                    }
                }
            }
        }
        assertTrue(scanned > 100, "sanity: test sources were scanned (" + scanned + " files)");
        assertEquals(List.of(), bare, "a bare Thread.sleep in test code: wait with Await, or pause with Pace.sleep");
    }

    /** The directory of the parent pom, found from the module's working directory upwards. */
    private static Path repositoryRoot() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        for (int up = 0; up < 4 && dir != null; up++, dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            if (Files.isRegularFile(pom) && Files.readString(pom).contains("<module>proxypool-testkit</module>")) {
                return dir;
            }
        }
        throw new IllegalStateException(
                "no parent pom listing proxypool-testkit above " + Path.of("").toAbsolutePath());
    }
}
