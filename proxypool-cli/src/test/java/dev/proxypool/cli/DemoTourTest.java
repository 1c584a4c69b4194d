package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The demo's printed tour, line by line, as a new user runs it: each {@code curl} line with the real
 * curl (through the gateway, the HTTPS tunnel, the SOCKS5 listener, the Distribution API, observe),
 * each {@code ./proxypool} line with the CLI; all of them must succeed. Then the commands that
 * extract (the example, {@code bench extraction}) must leave the gateway's own three proxies in the
 * pool: the gateway lines keep answering 200 through each of them.
 */
@Tag("slow")
class DemoTourTest {

    private static final String ADMIN_TOKEN = "demo-admin-0123456789";

    private static final Pattern PROXY_ID = Pattern.compile("(?im)^X-ProxyPool-Proxy: (\\S+)");

    @Test
    void everyPrintedTourLineSucceedsAndExtractingLeavesTheGatewayItsProxies() throws Exception {
        try (Demo demo = Demo.start(0, 0)) {
            List<String> lines = tourLines(demo.banner());
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("curl --socks5-hostname")), lines.toString());
            assertTrue(
                    lines.stream()
                            .anyMatch(l -> l.startsWith("./proxypool acquire") && l.contains("--upstream sessions")),
                    lines.toString());
            for (String line : lines) {
                if (line.startsWith("curl ")) {
                    Curl c = curl(line);
                    assertEquals(0, c.exit(), line + " -> curl exit " + c.exit() + ": " + c.err());
                    assertTrue(c.out().startsWith("HTTP/1.1 200"), line + " -> " + c.out());
                } else if (line.startsWith("./proxypool ")) {
                    String[] args = line.substring("./proxypool ".length()).split(" +");
                    CliRunner.Run r = CliRunner.run(args);
                    assertEquals(Main.EXIT_OK, r.exit(), line + " -> " + r.out() + r.err());
                    if (args[0].equals("example")) {
                        assertTrue(r.out().contains("extracted for exclusive use"), line + " -> " + r.out());
                    } else {
                        assertTrue(r.out().contains("sessions"), line + " -> " + r.out());
                    }
                } else {
                    throw new AssertionError("a tour line the test does not know how to run: " + line);
                }
            }
            // extract until the sessions are gone: with the demo's token, bench takes from them only
            String api = "http://127.0.0.1:" + demo.server().apiPort();
            CliRunner.Run bench = CliRunner.run(
                    "bench",
                    "extraction",
                    "--api",
                    api,
                    "--token",
                    Demo.TOKEN,
                    "--count",
                    "50",
                    "--connections",
                    "2",
                    "--duration",
                    "3s");
            assertEquals(Main.EXIT_OK, bench.exit(), bench.out() + bench.err());
            for (int i = 0; i < 2; i++) {
                assertEquals(
                        Main.EXIT_OK,
                        CliRunner.run("example", "remote-extraction", "--api", api)
                                .exit());
            }
            String gatewayLine = lines.getFirst();
            assertTrue(gatewayLine.startsWith("curl -x http://127.0.0.1:"), gatewayLine);
            for (int i = 0; i < 3; i++) {
                Curl c = curl(gatewayLine);
                assertEquals(0, c.exit(), gatewayLine + " after extracting: " + c.err());
                assertTrue(c.out().startsWith("HTTP/1.1 200"), gatewayLine + " after extracting: " + c.out());
                assertTrue(PROXY_ID.matcher(c.out()).find(), c.out());
            }
            String left = CliRunner.run(
                            "admin", "proxies", "list", "--upstream", "demo", "--api", api, "--token", ADMIN_TOKEN)
                    .out();
            assertEquals(
                    3,
                    left.lines().filter(l -> l.contains(" available ")).count(),
                    "the gateway's three proxies are all still in the pool: " + left);
        }
    }

    /** Every line of the README's tour is one the demo prints (and the test above runs), ports aside. */
    @Test
    void theReadmesTourIsTheDemosTour() throws Exception {
        String readme = Files.readString(readme());
        int tour = readme.indexOf("## A five-minute tour");
        int start = readme.indexOf("```sh\n", tour) + "```sh\n".length();
        List<String> documented = readme.substring(start, readme.indexOf("```", start))
                .lines()
                .map(DemoTourTest::normalized)
                .toList();
        try (Demo demo = Demo.start(0, 0)) {
            List<String> printed = tourLines(demo.banner()).stream()
                    .map(DemoTourTest::normalized)
                    .toList();
            for (String line : documented) {
                assertTrue(
                        printed.contains(line),
                        "the README's tour line is not printed by the demo: " + line + "\nprinted: "
                                + String.join("\n", printed));
            }
            assertEquals(printed.size(), documented.size(), "the README shows every printed line: " + printed);
        }
    }

    /** A tour line without its comment, with every 127.0.0.1 port (or placeholder) as PORT and no --api. */
    static String normalized(String line) {
        String l = line.replaceAll("\\s+#.*$", "").strip();
        l = l.replaceAll("127\\.0\\.0\\.1:(\\d+|<[a-z-]+>)", "127.0.0.1:PORT");
        return l.replace(" --api http://127.0.0.1:PORT", "").replaceAll("\\s+", " ");
    }

    private static Path readme() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("proxypool-cli"))) {
                return p.resolve("README.md");
            }
        }
        throw new IllegalStateException("README.md not found");
    }

    /** The lines under "Try:" up to the first blank line. */
    static List<String> tourLines(String banner) {
        List<String> lines = new ArrayList<>();
        boolean in = false;
        for (String l : banner.lines().toList()) {
            if (l.strip().equals("Try:")) {
                in = true;
            } else if (in && l.isBlank()) {
                break;
            } else if (in) {
                lines.add(l.strip());
            }
        }
        assertFalse(lines.isEmpty(), banner);
        return lines;
    }

    record Curl(int exit, String out, String err) {}

    /** Runs a printed curl line through the shell as typed, showing the response head ({@code -i}) and failing on 4xx/5xx. */
    static Curl curl(String line) throws IOException, InterruptedException {
        String command = line + " --fail --silent --show-error --max-time 20" + (line.contains(" -i") ? "" : " -i");
        Process p = new ProcessBuilder(Arrays.asList("bash", "-c", command)).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("curl did not finish: " + line);
        }
        return new Curl(
                p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }
}
