package dev.proxypool.cli;

import static dev.proxypool.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.sdk.json.JsonCodec;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code proxypool acquire} and {@code proxypool release} against a real server: output, exit codes, errors. */
@Tag("slow")
class LeaseCommandsTest {

    @TempDir
    static Path dir;

    static ApiServer api;

    @BeforeAll
    static void start() throws IOException {
        api = ApiServer.start(dir, ApiServer.sixProxies(), "");
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    private static String[] cmd(String name, String... more) {
        String[] base = {name, "--api", api.apiUrl(), "--token", ApiServer.ALICE};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void acquireAsJsonThenReleaseWithAFailureThenAgain() {
        CliRunner.Run a = run(cmd("acquire", "--host", "shop.example", "--country", "DE", "--hold", "2m", "--json"));
        assertEquals(0, a.exit(), a.err());
        JsonNode j = JsonCodec.read(a.out().strip(), JsonCodec.Nesting.FEED);
        String leaseId = j.get("leaseId").asText();
        assertEquals("socks5", j.get("protocol").asText());
        assertTrue(j.get("url").asText().startsWith("socks5://203.0.113."), a.out());

        CliRunner.Run r = run(cmd("release", leaseId, "--outcome", "connect_timeout", "--latency", "250ms"));
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("released " + leaseId + " (connect_timeout"), r.out());
        CliRunner.Run again = run(cmd("release", leaseId));
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.out().contains("already released (outcome connect_timeout)"), again.out());
    }

    @Test
    void theTableMasksTheAddressAndHidesTheUrl() {
        CliRunner.Run a = run(cmd("acquire", "--country", "US", "--protocol", "http"));
        assertEquals(0, a.exit(), a.err());
        assertTrue(a.out().contains("LEASE"), a.out());
        assertFalse(a.out().contains("203.0.113."), "masked: " + a.out());
        assertFalse(a.out().contains("p%3Ass"), "no credentials without --show-urls: " + a.out());
        String leaseId = a.out()
                .lines()
                .filter(l -> l.startsWith("l-"))
                .findFirst()
                .orElseThrow()
                .split("\\s+")[0];
        assertEquals(0, run(cmd("release", leaseId, "--outcome", "abandoned")).exit());
    }

    @Test
    void exitCodes() {
        CliRunner.Run none = run(cmd("acquire", "--country", "FR"));
        assertEquals(Main.EXIT_PARTIAL, none.exit(), none.err());
        assertTrue(none.err().contains("no_candidate"), none.err());
        CliRunner.Run unknown = run(cmd("release", "l-nosuchlease"));
        assertEquals(Main.EXIT_ERROR, unknown.exit());
        assertTrue(unknown.err().contains("unknown lease"), unknown.err());
        CliRunner.Run bad = run(cmd("release", "l-x", "--outcome", "exploded"));
        assertEquals(Main.EXIT_USAGE, bad.exit());
        assertTrue(bad.err().contains("--outcome 'exploded' is unknown"), bad.err());
        CliRunner.Run hold = run(cmd("acquire", "--hold", "5h"));
        assertEquals(Main.EXIT_USAGE, hold.exit(), hold.err());
        assertTrue(hold.err().contains("holdSeconds"), hold.err());
        CliRunner.Run noToken = run("acquire", "--api", api.apiUrl(), "--token", "");
        assertEquals(Main.EXIT_USAGE, noToken.exit());
    }
}
