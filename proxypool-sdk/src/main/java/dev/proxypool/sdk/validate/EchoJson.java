package dev.proxypool.sdk.validate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.json.MalformedJsonException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes and reads the echo body {@code {"ip": "...", "headers": {...}}}. The reader takes untrusted
 * input (whatever a proxy sends back), parsed by {@link JsonCodec} with the
 * {@link JsonCodec.Nesting#ECHO} nesting limit; it requires a string {@code ip} and a {@code headers}
 * object of strings (or arrays of strings, joined with {@code ", "}) and skips any other top-level member.
 */
final class EchoJson {

    private EchoJson() {}

    /** What an echo endpoint saw: the peer and the headers, looked up case-insensitively. */
    record Echo(String ip, Map<String, String> headers) {

        String header(String name) {
            return headers.get(name);
        }
    }

    /** The echo body: {@code {"ip": ip, "headers": {name: value, ...}}}, names in the map's order. */
    static String write(String ip, Map<String, List<String>> headers) {
        Map<String, String> joined = new LinkedHashMap<>();
        headers.forEach((name, values) -> joined.put(name, String.join(", ", values)));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("ip", ip);
        body.put("headers", joined);
        return JsonCodec.write(body);
    }

    /**
     * Parses an echo body.
     *
     * @throws IllegalArgumentException when it is not JSON of the echo shape; the message names the
     *         problem, never echoes the input
     */
    static Echo parse(String json) {
        JsonNode top;
        try {
            top = JsonCodec.read(json, JsonCodec.Nesting.ECHO);
        } catch (MalformedJsonException e) {
            throw new IllegalArgumentException(
                    e.reason() == MalformedJsonException.Reason.DUPLICATE_KEY
                            ? "the echo body repeats the key '" + e.duplicateKey() + "'"
                            : "the " + e.describe("echo body"));
        }
        if (!top.isObject()) {
            throw new IllegalArgumentException("the echo body is not a JSON object");
        }
        JsonNode ip = top.get("ip");
        if (ip == null || !ip.isTextual()) {
            throw new IllegalArgumentException("the echo body has no string 'ip'");
        }
        JsonNode raw = top.get("headers");
        if (raw == null || !raw.isObject()) {
            throw new IllegalArgumentException("the echo body has no object 'headers'");
        }
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Iterator<Map.Entry<String, JsonNode>> it = raw.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            headers.merge(e.getKey(), headerValue(e.getKey(), e.getValue()), (a, b) -> a + ", " + b);
        }
        return new Echo(ip.textValue(), headers);
    }

    private static String headerValue(String name, JsonNode v) {
        if (v.isTextual()) {
            return v.textValue();
        }
        if (v.isArray()) {
            List<String> parts = new ArrayList<>(v.size());
            for (JsonNode x : v) {
                if (!x.isTextual()) {
                    throw new IllegalArgumentException("the echo header '" + name + "' is not a string");
                }
                parts.add(x.textValue());
            }
            return String.join(", ", parts);
        }
        throw new IllegalArgumentException("the echo header '" + name + "' is not a string");
    }
}
