package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code proxypool example NAME}: the examples run from the CLI, the remote one against the demo. */
@Tag("slow")
class ExampleCommandTest {

    @Test
    void remoteExtractionRunsAgainstTheDemo() throws Exception {
        try (Demo demo = Demo.start(0, 0)) {
            CliRunner.Run r = CliRunner.run(
                    "example",
                    "remote-extraction",
                    "--api",
                    "http://127.0.0.1:" + demo.server().apiPort(),
                    "--upstream",
                    "sessions");
            assertEquals(Main.EXIT_OK, r.exit(), r.out() + r.err());
            assertTrue(r.out().contains("running RemoteExtractionExample"), r.out());
            assertTrue(
                    r.out().matches("(?s).*extracted for exclusive use \\(opaque ids\\): \\[p-\\S+, p-\\S+\\].*"),
                    r.out());
        }
    }

    @Test
    void anInProcessExampleRuns() {
        CliRunner.Run r = CliRunner.run("example", "embedded-pool");
        assertEquals(Main.EXIT_OK, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("extracted for exclusive use: [p-"), r.out());
    }

    @Test
    void anUnknownExampleIsAUsageErrorListingTheKnownOnes() {
        CliRunner.Run r = CliRunner.run("example", "remote-extractoin");
        assertEquals(Main.EXIT_USAGE, r.exit());
        assertEquals(
                "proxypool example: unknown example 'remote-extractoin' (known: embedded-pool, custom-provider, "
                        + "remote-extraction)",
                r.errLines().getFirst());
    }
}
