package dev.proxypool.server.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.proxypool.core.limits.RateLimiter;
import dev.proxypool.core.security.DestinationPolicy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.server.gateway.HeaderLookup;
import dev.proxypool.server.upstream.AccessControl.Options;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Username options: parsed once per username and client list, the same instance for repeats. */
class ServerAccessTest {

    private static HeaderLookup basic(String user, String password) {
        String value =
                "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return name -> name.equalsIgnoreCase("Proxy-Authorization") ? value : null;
    }

    private static ServerAccess access(UsernameParser parser) {
        return new ServerAccess(
                new RateLimiter(Map.of(), Clocks.monotonic()),
                DestinationPolicy.builder().build(),
                parser);
    }

    @Test
    void repeatedUsernamesGetTheSameOptionsInstance() {
        ServerAccess access = access(UsernameParser.forClients(List.of("alice")));
        Options first = access.options("alice", basic("alice-session-s1-country-us", "pw1"));
        assertEquals("s1", first.sessionId());
        assertEquals(Map.of("country", "US"), first.labels());
        Options again = access.options("alice", basic("alice-session-s1-country-us", "another password"));
        assertSame(first, again, "parsed once; the password plays no part");
        assertSame(
                first.labels(),
                again.labels(),
                "one label map instance, so the engine's filter lookup is an identity hit");
        Options other = access.options("alice", basic("alice-country-de", "pw1"));
        assertEquals(Map.of("country", "DE"), other.labels());
        assertEquals("", other.sessionId());
        assertSame(Options.NONE, access.options("alice", basic("alice", "pw1")));
        assertSame(Options.NONE, access.options("alice", HeaderLookup.NONE));
        assertSame(Options.NONE, access.options("mallory", basic("mallory-country-us", "pw")), "unknown client");
    }

    @Test
    void aNewClientListParsesAgain() {
        AtomicReference<UsernameParser> parser = new AtomicReference<>(UsernameParser.forClients(List.of("alice")));
        ServerAccess access = new ServerAccessForTest(parser).access;
        assertSame(Options.NONE, access.options("bob", basic("bob-country-us", "pw")), "bob is not a client yet");
        parser.set(UsernameParser.forClients(List.of("alice", "bob")));
        Options bob = access.options("bob", basic("bob-country-us", "pw"));
        assertEquals(Map.of("country", "US"), bob.labels(), "the cache of the old client list is not used");
        assertNotSame(Options.NONE, bob);
    }

    /** Builds a ServerAccess over a changing parser through the same path LiveClients uses. */
    private static final class ServerAccessForTest {
        final ServerAccess access;

        ServerAccessForTest(AtomicReference<UsernameParser> parser) {
            this.access = ServerAccess.withParser(
                    new RateLimiter(Map.of(), Clocks.monotonic()),
                    DestinationPolicy.builder().build(),
                    parser::get);
        }
    }
}
