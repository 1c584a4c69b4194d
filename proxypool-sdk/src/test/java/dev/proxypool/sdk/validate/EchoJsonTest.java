package dev.proxypool.sdk.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The echo body parser takes what a proxy sends back: the echo shape or a clear refusal. */
class EchoJsonTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"ip\": \"203.0.113.7\", \"headers\": {\"Via\": \"1.1 x\"}}                   | 203.0.113.7 | 1.1 x",
                "{\"headers\": {\"via\": [\"a\", \"b\"]}, \"ip\": \"::1\", \"extra\": [1, true, null, {\"x\": -2.5e3}]} | ::1 | a, b",
                "  {\"ip\":\"10.0.0.1\",\"headers\":{\"VIA\":\"\\u0041\\/\"}}  | 10.0.0.1 | A/",
                "{\"ip\": \"10.0.0.1\", \"headers\": {}}                                        | 10.0.0.1 | ",
            })
    void acceptsTheEchoShape(String json, String ip, String via) {
        EchoJson.Echo e = EchoJson.parse(json);
        assertEquals(ip, e.ip());
        assertEquals(via, e.header("Via"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "",
                "<html>this is not a proxy</html>",
                "[]",
                "{\"ip\": 7, \"headers\": {}}",
                "{\"headers\": {}}",
                "{\"ip\": \"1.2.3.4\"}",
                "{\"ip\": \"1.2.3.4\", \"headers\": []}",
                "{\"ip\": \"1.2.3.4\", \"headers\": {\"a\": 1}}",
                "{\"ip\": \"1.2.3.4\", \"headers\": {}} trailing",
                "{\"ip\": \"1.2.3.4\", \"headers\": {}",
                "{\"ip\": \"1.2.3.4\", \"headers\": {\"a\": \"\\q\"}}",
                "{\"ip\": \"unterminated",
                "{\"a\":[[[[[[[[[[[[1]]]]]]]]]]]], \"ip\": \"1.2.3.4\", \"headers\": {}}",
                "{\"ip\": \"1.2.3.4\", \"headers\": {\"a\": \"\\u12\"}}",
                "{'ip': '1.2.3.4'}",
                "{\"ip\": \"a\nb\", \"headers\": {}}",
            })
    void refusesAnythingElseWithoutEchoingIt(String body) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EchoJson.parse(body));
        assertTrue(e.getMessage().startsWith("the echo "), e.getMessage());
        if (body.length() > 10) {
            assertTrue(!e.getMessage().contains(body), "the message must not echo untrusted input");
        }
    }
}
