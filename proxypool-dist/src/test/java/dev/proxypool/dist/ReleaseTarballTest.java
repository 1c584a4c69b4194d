package dev.proxypool.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release tarball as an operator meets it: unpacked with {@code tar} into an empty folder far from
 * the source tree, its launcher run with a clean environment (no {@code JAVA_HOME}, the source tree's
 * files out of reach), {@code --version}, and a short {@code serve} from the shipped annotated config
 * that answers {@code /observe/health} with 200.
 */
class ReleaseTarballTest {

    private static final Duration START = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private Process serve;

    private Path home;

    @BeforeEach
    void unpack() throws Exception {
        Path tarball = Path.of(System.getProperty("proxypool.tarball"));
        assertTrue(Files.isRegularFile(tarball), "the package phase built no tarball at " + tarball);
        Run untar = run(List.of("tar", "-xzf", tarball.toString(), "-C", dir.toString()), Map.of(), 60);
        assertEquals(0, untar.exit(), "tar failed: " + untar.output());
        home = dir.resolve("proxypool-" + System.getProperty("proxypool.version"));
        assertTrue(Files.isDirectory(home), "the tarball has no top folder " + home.getFileName());
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (serve != null && serve.isAlive()) {
            serve.destroy();
            if (!serve.waitFor(20, TimeUnit.SECONDS)) {
                serve.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void theTarballHoldsWhatAnOperatorNeeds() throws IOException {
        for (String file : List.of(
                "bin/proxypool",
                "config/proxypool.yaml",
                "systemd/proxypool.service",
                "LICENSE",
                "README.md",
                "CHANGELOG.md",
                "docs/runbook.md",
                "ops/prometheus/proxypool-alerts.yml",
                "ops/grafana/proxypool-dashboard.json",
                "docs/configuration.md")) {
            assertTrue(Files.isRegularFile(home.resolve(file)), "missing " + file);
        }
        assertTrue(
                Files.getPosixFilePermissions(home.resolve("bin/proxypool"))
                        .contains(PosixFilePermission.OWNER_EXECUTE),
                "bin/proxypool is not executable");
        try (Stream<Path> jars = Files.list(home.resolve("lib"))) {
            List<String> names =
                    jars.map(p -> p.getFileName().toString()).sorted().toList();
            assertTrue(
                    names.stream().anyMatch(n -> n.startsWith("proxypool-cli-")), "lib/ lacks the CLI jar: " + names);
            assertTrue(
                    names.stream().anyMatch(n -> n.startsWith("helidon-webserver-")), "lib/ lacks Helidon: " + names);
            assertTrue(
                    names.stream().noneMatch(n -> n.startsWith("proxypool-testkit") || n.startsWith("junit")),
                    "test-only jars shipped: " + names);
        }
        String license = Files.readString(home.resolve("LICENSE"));
        assertTrue(license.contains("Apache License") && license.contains("Version 2.0"), "LICENSE is not Apache-2.0");
        String unit = Files.readString(home.resolve("systemd/proxypool.service"));
        for (String hardening : List.of("NoNewPrivileges=true", "ProtectSystem=strict", "PrivateTmp=true")) {
            assertTrue(unit.contains(hardening), "the systemd unit lacks " + hardening);
        }
    }

    /**
     * Every key of the shipped configuration reference appears in the shipped example config (set to its
     * default, or commented out with an example where it needs an outside service).
     */
    @Test
    void theExampleConfigNamesEveryDocumentedKey() throws IOException {
        String yaml = Files.readString(home.resolve("config/proxypool.yaml"));
        List<String> missing = new ArrayList<>();
        int keys = 0;
        for (String line : Files.readAllLines(home.resolve("docs/configuration.md"))) {
            if (line.startsWith("## File formats")) {
                break; // the tables below describe inventory files, not proxypool.yaml
            }
            if (!line.startsWith("| `")) {
                continue;
            }
            String firstColumn = line.substring(1, line.indexOf('|', 1));
            Matcher key = Pattern.compile("`([A-Za-z.]+)`").matcher(firstColumn);
            while (key.find()) {
                String leaf = key.group(1).substring(key.group(1).lastIndexOf('.') + 1);
                keys++;
                if (!Pattern.compile("(?m)^[\\s#-]*(?:.*\\s)?" + leaf + ":")
                        .matcher(yaml)
                        .find()) {
                    missing.add(key.group(1));
                }
            }
        }
        assertTrue(keys > 80, "read only " + keys + " keys from docs/configuration.md");
        assertEquals(List.of(), missing, "keys of docs/configuration.md absent from config/proxypool.yaml");
    }

    @Test
    void theLauncherPrintsTheVersionWithoutTheSourceTree() throws Exception {
        Run version = run(List.of(home.resolve("bin/proxypool").toString(), "--version"), Map.of(), 60);
        assertEquals(0, version.exit(), version.output());
        assertEquals(
                "proxypool " + System.getProperty("proxypool.version"),
                version.output().strip());
    }

    @Test
    void serveFromTheShippedConfigAnswersHealth() throws Exception {
        int gateway = freePort();
        int api = freePort();
        ProcessBuilder pb = new ProcessBuilder(
                        home.resolve("bin/proxypool").toString(),
                        "serve",
                        "--config",
                        home.resolve("config/proxypool.yaml").toString())
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("serve.log").toFile());
        cleanEnvironment(pb.environment());
        pb.environment().put("PROXYPOOL_SERVER_GATEWAYPORT", Integer.toString(gateway));
        pb.environment().put("PROXYPOOL_SERVER_APIPORT", Integer.toString(api));
        serve = pb.start();

        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(2))
                .proxy(HttpClient.Builder.NO_PROXY)
                .build();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api + "/observe/health"))
                .timeout(Duration.ofSeconds(5))
                .build();
        long deadline = System.nanoTime() + START.toNanos();
        int status = -1;
        String body = "";
        while (System.nanoTime() < deadline && serve.isAlive()) {
            try {
                HttpResponse<String> r = http.send(health, HttpResponse.BodyHandlers.ofString());
                status = r.statusCode();
                body = r.body();
                if (status == 200) {
                    break;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            serve.waitFor(200, TimeUnit.MILLISECONDS);
        }
        String log = Files.readString(dir.resolve("serve.log"));
        assertEquals(200, status, "health from the unpacked server; its output:\n" + log);
        assertTrue(body.contains("\"status\""), "health body: " + body);
        Matcher listening = Pattern.compile("gateway on \\S*:(\\d+)").matcher(log);
        assertTrue(listening.find(), "serve did not report its gateway:\n" + log);
        assertEquals(Integer.toString(gateway), listening.group(1), "the environment override of the port");
    }

    /** No JAVA_HOME or Maven settings from the build: the launcher must find a JDK by itself. */
    private static void cleanEnvironment(Map<String, String> env) {
        env.keySet().removeIf(k -> k.startsWith("JAVA") || k.startsWith("MAVEN") || k.startsWith("PROXYPOOL"));
    }

    private record Run(int exit, String output) {}

    private Run run(List<String> command, Map<String, String> extraEnv, int seconds) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command))
                .directory(dir.toFile())
                .redirectErrorStream(true);
        cleanEnvironment(pb.environment());
        pb.environment().putAll(extraEnv);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not end in " + seconds + " s");
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
