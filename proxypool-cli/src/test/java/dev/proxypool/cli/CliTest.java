package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.security.SecretHash;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Tag("slow")
class CliTest {

    private record Run(int exit, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void capacityReproducesTheFormula() {
        Run r = run(
                "capacity",
                "--peak-qps",
                "100000",
                "--measured-worker-qps",
                "12000",
                "--utilization",
                "0.6",
                "--spares",
                "2",
                "--json");
        assertEquals(0, r.exit, r.err);
        assertTrue(r.out.contains("\"requiredWorkers\": 16"), r.out);
        Run table = run(
                "capacity",
                "--peak-qps",
                "100000",
                "--measured-worker-qps",
                "12000",
                "--utilization",
                "0.6",
                "--spares",
                "2");
        assertTrue(table.out.contains("required workers     16"), table.out);
    }

    @Test
    void capacityBadValuesAreUsageErrorsWithOneClearLine() {
        Run r = run("capacity", "--peak-qps", "100000", "--measured-worker-qps", "12000", "--utilization", "1.5");
        assertEquals(Main.EXIT_USAGE, r.exit);
        assertEquals("proxypool capacity: utilization must be in (0, 1], got 1.5", r.err.strip());
    }

    @Test
    void unknownFlagsAndMissingOptionsExitWithUsage() {
        assertEquals(Main.EXIT_USAGE, run("capacity", "--bogus").exit);
        assertEquals(Main.EXIT_USAGE, run("capacity", "--peak-qps", "1").exit);
        assertEquals(Main.EXIT_USAGE, run("no-such-command").exit);
    }

    @Test
    void helpListsTheCommands() {
        Run r = run("--help");
        assertEquals(0, r.exit);
        for (String cmd :
                new String[] {"serve", "demo", "extract", "validate", "echo", "bench", "capacity", "hash-secret"}) {
            assertTrue(r.out.contains(cmd), r.out);
        }
        assertTrue(r.out.contains("--verbose"), r.out);
        assertTrue(r.out.contains("Exit codes:"), r.out);
        for (String cmd : new String[] {"extract", "validate", "echo", "bench", "bench gateway", "bench extraction"}) {
            Run help = run((cmd + " --help").split(" "));
            assertEquals(0, help.exit, cmd);
            assertTrue(help.out.contains("Example"), cmd + ": " + help.out);
            assertTrue(help.out.contains("Exit codes:"), cmd + ": " + help.out);
        }
    }

    @Command(name = "boom")
    static final class Boom implements Callable<Integer> {
        @Override
        public Integer call() {
            throw new IllegalStateException("kaboom\nsecond line with details");
        }
    }

    private static Run runWithBoom(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.addSubcommand("boom", new Boom());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new Run(cl.execute(args), out.toString(), err.toString());
    }

    @Test
    void anUnexpectedExceptionIsOneLineAndExitOneWithTheTraceOnlyWhenVerbose() {
        Run r = runWithBoom("boom");
        assertEquals(Main.EXIT_ERROR, r.exit);
        assertEquals("proxypool boom: kaboom", r.err.strip());
        Run verbose = runWithBoom("--verbose", "boom");
        assertEquals(Main.EXIT_ERROR, verbose.exit);
        assertTrue(verbose.err.startsWith("proxypool boom: kaboom"), verbose.err);
        assertTrue(verbose.err.contains("IllegalStateException") && verbose.err.contains("\tat "), verbose.err);
    }

    @Test
    void usageErrorsAreOneLineWithAPointerToHelp() {
        Run r = run("capacity", "--peak-qps", "1", "--measured-worker-qps", "1", "--bogus");
        assertEquals(Main.EXIT_USAGE, r.exit);
        assertEquals(1, r.err.lines().count(), r.err);
        assertTrue(r.err.startsWith("proxypool capacity: Unknown option: '--bogus'"), r.err);
        assertTrue(r.err.strip().endsWith("(see 'proxypool capacity --help')"), r.err);
    }

    @Test
    void hashSecretReadsStdinAndPrintsAVerifiableHash() {
        InputStream stdin = System.in;
        try {
            System.setIn(new ByteArrayInputStream("alice-s3cret\n".getBytes(StandardCharsets.UTF_8)));
            Run r = run("hash-secret");
            assertEquals(0, r.exit, r.err);
            String hash = r.out.strip();
            assertTrue(SecretHash.verify("alice-s3cret".toCharArray(), hash));
            assertTrue(!r.out.contains("alice-s3cret"));
            System.setIn(new ByteArrayInputStream(new byte[0]));
            assertEquals(Main.EXIT_USAGE, run("hash-secret").exit);
        } finally {
            System.setIn(stdin);
        }
    }

    @Test
    void hashSecretRefusesASecretShorterThanAPlainSecretMayBe() {
        InputStream stdin = System.in;
        try {
            System.setIn(new ByteArrayInputStream("abc\n".getBytes(StandardCharsets.UTF_8)));
            Run r = run("hash-secret");
            assertEquals(Main.EXIT_USAGE, r.exit, r.out + r.err);
            assertEquals("", r.out, "no hash for a short secret");
            assertEquals("proxypool hash-secret: the secret must be at least 8 characters, got 3", r.err.strip());
            assertTrue(!r.err.contains("abc"), "the secret is never printed: " + r.err);
            System.setIn(new ByteArrayInputStream("12345678\n".getBytes(StandardCharsets.UTF_8)));
            Run eight = run("hash-secret");
            assertEquals(0, eight.exit, eight.err);
            assertTrue(SecretHash.verify("12345678".toCharArray(), eight.out.strip()));
        } finally {
            System.setIn(stdin);
        }
    }

    @Test
    void noCommandIsAUsageErrorWithTheUsageOnStderr() {
        Run r = run();
        assertEquals(Main.EXIT_USAGE, r.exit, r.out + r.err);
        assertTrue(r.err.contains("Usage: proxypool"), r.err);
        assertTrue(r.err.contains("hash-secret"), r.err);
        assertEquals("", r.out);
        Run help = run("--help");
        assertEquals(0, help.exit);
        assertTrue(help.out.contains("Usage: proxypool"), help.out);
    }
}
