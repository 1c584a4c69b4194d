package dev.proxypool.server.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proxypool.core.model.LabelSelector;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UsernameParserTest {

    private static final UsernameParser PARSER =
            UsernameParser.forClients(List.of("alice", "team", "team-a", "bob.smith", "x_1"));

    /** Expected: client | session ("" = none) | labels selector text ("" = none). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "alice                                   | alice     |        | ''",
                "alice-session-abc123                    | alice     | abc123 | ''",
                "alice-session-abc123-country-us         | alice     | abc123 | country=US",
                "alice-country-us-session-abc123         | alice     | abc123 | country=US",
                "alice-country-De                        | alice     |        | country=DE",
                "alice-session-A.b_9                     | alice     | A.b_9  | ''",
                "alice-session-s1-country-us-region-ca-city-san_francisco-carrier-att-type-residential | alice | s1 | carrier=att,city=san_francisco,country=US,region=ca,type=residential",
                "team                                    | team      |        | ''",
                "team-a                                  | team-a    |        | ''",
                "team-a-session-x                        | team-a    | x      | ''",
                "team-session-x                          | team      | x      | ''",
                "team-a-country-fr-type-mobile           | team-a    |        | country=FR,type=mobile",
                "bob.smith-country-gb                    | bob.smith |        | country=GB",
                "x_1-session-0                           | x_1       | 0      | ''",
            })
    void goodUsernames(String username, String client, String session, String labels) {
        UsernameParser.Parsed p = assertInstanceOf(UsernameParser.Parsed.class, PARSER.parse(username));
        assertEquals(
                new UsernameOptions(client, Optional.ofNullable(session), LabelSelector.parse(labels)), p.options());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "alice-session                     | key but no value",
                "alice-session-                    | empty value",
                "alice-session--country-us         | empty value",
                "alice-session-abc-country         | key but no value",
                "alice-session-abc-                | key but no value",
                "alice-session-abc-country-us-city | key but no value",
                "alice-session-abc-foo-bar         | unknown key",
                "alice-session-abc-Country-us      | unknown key",
                "alice-session-a-session-b         | given twice",
                "alice-country-us-country-de       | given twice",
                "alice-country-usa                 | two-letter",
                "alice-country-u1                  | two-letter",
                "alice-session-ab$c                | outside [A-Za-z0-9_.]",
                "alice-session-ab+c                | outside [A-Za-z0-9_.]",
                "alice-city-new york               | outside [A-Za-z0-9_.]",
                "alice-session-a:b                 | outside [A-Za-z0-9_.]",
            })
    void malformedOptionListsAreRejectedWhole(String username, String why) {
        UsernameParser.Malformed m = assertInstanceOf(UsernameParser.Malformed.class, PARSER.parse(username));
        assertEquals(true, m.reason().contains(why), m.reason());
    }

    @Test
    void sessionIdsAreLimitedTo64Characters() {
        String s64 = "s".repeat(64);
        UsernameParser.Parsed ok = assertInstanceOf(UsernameParser.Parsed.class, PARSER.parse("alice-session-" + s64));
        assertEquals(Optional.of(s64), ok.options().sessionId());
        assertInstanceOf(UsernameParser.Malformed.class, PARSER.parse("alice-session-" + s64 + "s"));
        assertInstanceOf(UsernameParser.Malformed.class, PARSER.parse("alice-" + "session-x-".repeat(30) + "type-a"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "carol",
                "carol-session-x",
                "alice-Session-x",
                "alice-sessionx-1",
                "alicex",
                "ali",
                "Alice",
                "team-b-session-x",
                "-session-x",
                "''"
            })
    void unknownBasesAreUnknownClients(String username) {
        assertInstanceOf(UsernameParser.UnknownClient.class, PARSER.parse(username));
    }

    @Test
    void nullIsUnknown() {
        assertInstanceOf(UsernameParser.UnknownClient.class, PARSER.parse(null));
    }

    @Test
    void longestClientNameFollowedByAKeyWinsWithoutFallback() {
        UsernameParser p = UsernameParser.forClients(List.of("a", "a-session"));
        assertEquals("a-session", client(p, "a-session"));
        assertEquals("a-session", client(p, "a-session-country-us"));
        // "a-session" is followed by "-x", not a key: only "a" qualifies as the base.
        assertEquals("a", client(p, "a-session-x"));
        UsernameParser.Parsed parsed = assertInstanceOf(UsernameParser.Parsed.class, p.parse("a-session-x-country-us"));
        assertEquals(Optional.of("x"), parsed.options().sessionId());
        // "a-session" is followed by "-type": it is the base, and its malformed remainder is not
        // re-read under "a" (where it would be session=type, country=US).
        assertInstanceOf(UsernameParser.Malformed.class, p.parse("a-session-type-country-us"));
    }

    private static String client(UsernameParser p, String u) {
        return assertInstanceOf(UsernameParser.Parsed.class, p.parse(u))
                .options()
                .client();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "whatever                    | whatever | ",
                "whatever-session-abc        | whatever | abc",
                "a-b-session-s-country-us    | a-b      | s",
                "user.name-type-residential  | user.name | ",
            })
    void anyBaseParsesOptionsAfterTheFirstKey(String username, String base, String session) {
        UsernameParser.Parsed p = assertInstanceOf(
                UsernameParser.Parsed.class, UsernameParser.anyBase().parse(username));
        assertEquals(base, p.options().client());
        assertEquals(Optional.ofNullable(session), p.options().sessionId());
    }

    @Test
    void anyBaseStillRejectsMalformedOptions() {
        assertInstanceOf(
                UsernameParser.Malformed.class, UsernameParser.anyBase().parse("-session-x"));
        assertInstanceOf(
                UsernameParser.Malformed.class, UsernameParser.anyBase().parse("x-session"));
        assertInstanceOf(
                UsernameParser.Malformed.class, UsernameParser.anyBase().parse("x-session-a-bogus-b"));
        assertInstanceOf(
                UsernameParser.Malformed.class, UsernameParser.anyBase().parse("bad name-session-a"));
        assertInstanceOf(
                UsernameParser.Malformed.class, UsernameParser.anyBase().parse("x".repeat(257)));
    }

    @Test
    void invalidConfiguredNamesAreRefused() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> UsernameParser.forClients(List.of("alice", "bad name")));
        assertEquals(true, e.getMessage().contains("'bad name'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> UsernameParser.forClients(List.of("-lead")));
    }

    @ParameterizedTest(name = "username session={0} header={1} -> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "    |        | none",
                "s1  |        | s1",
                "    | h1     | h1",
                "s1  | s1     | s1",
                "s1  | ' s1 ' | s1",
                "s1  | h1     | conflict",
                "    | 'a b'  | invalid",
                "s1  | a-b    | invalid",
                "    | '  '   | none",
            })
    void sessionHeaderAndUsernameMerge(String fromName, String header, String expected) {
        UsernameOptions o = new UsernameOptions("alice", Optional.ofNullable(fromName), LabelSelector.ANY);
        String got = switch (SessionChoice.of(o, header)) {
            case SessionChoice.None n -> "none";
            case SessionChoice.Session s -> s.id();
            case SessionChoice.Invalid i -> "invalid";
            case SessionChoice.Conflict c -> "conflict";
        };
        assertEquals(expected, got);
    }

    @Test
    void overlongSessionHeaderIsInvalid() {
        assertInstanceOf(SessionChoice.Invalid.class, SessionChoice.of(UsernameOptions.none("a"), "h".repeat(65)));
        assertInstanceOf(SessionChoice.Session.class, SessionChoice.of(UsernameOptions.none("a"), "h".repeat(64)));
    }
}
