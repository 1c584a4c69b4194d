package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.security.SecretHash;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CliTest {

    private record Run(int exit, String out, String err) {
    }

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
        Run r = run("capacity", "--peak-qps", "100000", "--measured-worker-qps", "12000", "--utilization", "0.6", "--spares", "2", "--json");
        assertEquals(0, r.exit, r.err);
        assertTrue(r.out.contains("\"requiredWorkers\": 16"), r.out);
        Run table = run("capacity", "--peak-qps", "100000", "--measured-worker-qps", "12000", "--utilization", "0.6", "--spares", "2");
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
        for (String cmd : new String[] {"serve", "demo", "capacity", "hash-secret"}) {
            assertTrue(r.out.contains(cmd), r.out);
        }
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
}
