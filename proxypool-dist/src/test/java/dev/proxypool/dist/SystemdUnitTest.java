package dev.proxypool.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped systemd unit as systemd reads it: the tarball unpacked with the command the runbook and
 * the unit's header give, {@code ExecStart} naming the launcher in that layout, every
 * {@code Environment=} line a set of whole assignments (the JVM flags the runbook promises all in
 * {@code JAVA_OPTS}), and {@code systemd-analyze verify} clean.
 */
class SystemdUnitTest {

    /** The install command of the runbook and the unit's header, for {@code /opt/proxypool}. */
    static final String UNPACK =
            "install -d /opt/proxypool && tar -xzf proxypool-<version>.tar.gz -C /opt/proxypool --strip-components=1";

    static final String JAVA_OPTS = "-XX:+UseZGC -Xms512m -Xmx2g -XX:+ExitOnOutOfMemoryError";

    @TempDir
    Path dir;

    @Test
    void theUnitStartsTheLauncherOfTheTarballUnpackedAsTheRunbookSays() throws Exception {
        Path tarball = Path.of(System.getProperty("proxypool.tarball"));
        assertTrue(Files.isRegularFile(tarball), "the package phase built no tarball at " + tarball);
        Path opt = dir.resolve("opt/proxypool");
        // the documented command, with the tarball's real name and a private /opt
        String command = UNPACK.replace("proxypool-<version>.tar.gz", tarball.toString())
                .replace("/opt/proxypool", opt.toString());
        Process p = new ProcessBuilder("sh", "-c", command)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "tar did not end");
        assertEquals(0, p.exitValue(), command + ": " + out);

        Path unitFile = opt.resolve("systemd/proxypool.service");
        String unit = Files.readString(unitFile);
        assertTrue(unit.contains("#   " + UNPACK + "\n"), "the unit's header gives the unpack command:\n" + unit);
        String runbook = Files.readString(opt.resolve("docs/runbook.md"));
        assertTrue(runbook.contains(UNPACK), "the runbook gives the same unpack command");

        Matcher exec = Pattern.compile("(?m)^ExecStart=(\\S+)").matcher(unit);
        assertTrue(exec.find(), unit);
        String launcher = exec.group(1);
        assertTrue(launcher.startsWith("/opt/proxypool/"), launcher);
        Path unpacked = opt.resolve(launcher.substring("/opt/proxypool/".length()));
        assertTrue(Files.isRegularFile(unpacked) && Files.isExecutable(unpacked), "ExecStart names " + unpacked);

        Map<String, String> env = environment(unit);
        assertEquals(JAVA_OPTS, env.get("JAVA_OPTS"), "every JVM flag the runbook promises: " + env);
        assertTrue(runbook.contains("`" + JAVA_OPTS.replace(" -XX:+Exit", "\n-XX:+Exit") + "`"), "runbook's flags");

        // systemd's own reading, on a copy whose /opt/proxypool is the unpacked folder
        Path copy = dir.resolve("proxypool.service");
        Files.writeString(copy, unit.replace("/opt/proxypool", opt.toString()));
        Process verify;
        try {
            verify = new ProcessBuilder("systemd-analyze", "verify", "--man=no", copy.toString())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new AssertionError("this test needs systemd-analyze (Debian: apt-get install systemd)", e);
        }
        String verdict = new String(verify.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(verify.waitFor(60, TimeUnit.SECONDS), "systemd-analyze did not end");
        assertEquals(0, verify.exitValue(), "systemd-analyze verify: " + verdict);
        assertFalse(verdict.contains("Invalid environment assignment"), verdict);
        assertFalse(verdict.contains("not executable"), verdict);
    }

    /** An unquoted value with spaces is several assignments: the parser sees what systemd ignores. */
    @Test
    void anUnquotedMultiWordValueIsNotOneAssignment() {
        List<String> bad = new ArrayList<>();
        Map<String, String> env = new LinkedHashMap<>();
        assign("JAVA_OPTS=" + JAVA_OPTS, env, bad);
        assertEquals("-XX:+UseZGC", env.get("JAVA_OPTS"));
        assertEquals(List.of("-Xms512m", "-Xmx2g", "-XX:+ExitOnOutOfMemoryError"), bad);
        Map<String, String> quoted = new LinkedHashMap<>();
        List<String> none = new ArrayList<>();
        assign("\"JAVA_OPTS=" + JAVA_OPTS + "\" 'A=b c' D=e", quoted, none);
        assertEquals(Map.of("JAVA_OPTS", JAVA_OPTS, "A", "b c", "D", "e"), quoted);
        assertEquals(List.of(), none);
    }

    /** The variables of every {@code Environment=} line; a word that is no assignment fails the test. */
    static Map<String, String> environment(String unit) {
        Map<String, String> env = new LinkedHashMap<>();
        List<String> bad = new ArrayList<>();
        for (String line : unit.split("\n")) {
            if (line.startsWith("Environment=")) {
                assign(line.substring("Environment=".length()), env, bad);
            }
        }
        assertEquals(List.of(), bad, "words systemd ignores as invalid environment assignments");
        return env;
    }

    /** systemd's reading of an {@code Environment=} value: words split on blanks, quotes group and go. */
    static void assign(String value, Map<String, String> env, List<String> bad) {
        for (String word : words(value)) {
            int eq = word.indexOf('=');
            if (eq <= 0 || !word.substring(0, eq).matches("[A-Za-z_][A-Za-z0-9_]*")) {
                bad.add(word);
            } else {
                env.put(word.substring(0, eq), word.substring(eq + 1));
            }
        }
    }

    private static List<String> words(String s) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < s.length()) {
                    w.append(s.charAt(++i));
                } else {
                    w.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inWord = true;
            } else if (c == ' ' || c == '\t') {
                if (inWord) {
                    words.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else if (c == '\\' && i + 1 < s.length()) {
                w.append(s.charAt(++i));
                inWord = true;
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(w.toString());
        }
        return words;
    }
}
