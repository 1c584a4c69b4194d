package dev.proxypool.server.api.lease;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.json.MalformedJsonException;
import dev.proxypool.sdk.rest.LeaseRequestBody;
import dev.proxypool.sdk.rest.ReleaseRequestBody;
import dev.proxypool.sdk.rest.RestJson;
import dev.proxypool.server.api.distribution.SelectionJson;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the acquire and release bodies ({@link LeaseRequestBody}, {@link ReleaseRequestBody}, shared
 * with the SDK's client) strictly, as the Distribution API reads its own ({@link RestJson#strict}):
 * unknown keys, wrong types, fractions, out-of-range numbers, a key given twice are refused with a
 * message naming the field ({@link IllegalArgumentException}); {@code null} counts as absent.
 */
final class LeaseJson {

    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._:\\[\\]-]{1,253}");
    private static final Pattern DOMAIN = Pattern.compile("[A-Za-z0-9.-]{1,253}");
    private static final Pattern LEASE_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** Longest {@code key}, {@code routing} and {@code session}. */
    static final int MAX_TEXT = 256;
    /** Largest {@code latencyMs}: one hour. */
    static final long MAX_LATENCY_MS = 3_600_000;

    private LeaseJson() {}

    /**
     * An acquire body; an empty body asks for any proxy with the defaults.
     *
     * @param defaultHold the hold time when none is given
     * @param maxHold     the longest hold time allowed
     */
    static AcquireCall acquire(byte[] body, Duration defaultHold, Duration maxHold) {
        JsonNode o = body.length == 0 ? JsonCodec.read("{}", JsonCodec.Nesting.REQUEST) : object(body);
        LeaseRequestBody b = RestJson.strict(
                o,
                LeaseRequestBody.class,
                Map.of("holdSeconds", new RestJson.Range(1, Math.max(1, maxHold.toSeconds()))));
        String host = text("host", b.host(), 253);
        if (!host.isEmpty() && !HOST.matcher(host).matches()) {
            throw new IllegalArgumentException(
                    "host must be a host name or IP address such as shop.example, got '" + echo(host) + "'");
        }
        String key = text("key", b.key(), MAX_TEXT);
        String routing = text("routing", b.routing(), MAX_TEXT);
        String session = text("session", b.session(), MAX_TEXT);
        ExtractionFilter filter = SelectionJson.filter(b.filter());
        Duration hold = b.holdSeconds() == null ? defaultHold : Duration.ofSeconds(b.holdSeconds());
        return new AcquireCall(host.toLowerCase(Locale.ROOT), key, routing, filter, session, hold);
    }

    /** A release body. */
    static ReleaseCall release(byte[] body) {
        if (body.length == 0) {
            throw new IllegalArgumentException(
                    "request body is empty (expected a JSON object {\"leaseId\", \"outcome\"})");
        }
        ReleaseRequestBody b = RestJson.strict(
                object(body), ReleaseRequestBody.class, Map.of("latencyMs", new RestJson.Range(0, MAX_LATENCY_MS)));
        String leaseId = text("leaseId", b.leaseId(), 64);
        if (leaseId.isEmpty()) {
            throw new IllegalArgumentException("leaseId is required (the leaseId of the acquire answer)");
        }
        if (!LEASE_ID.matcher(leaseId).matches()) {
            throw new IllegalArgumentException("leaseId '" + echo(leaseId) + "' is not a lease id");
        }
        String outcome = text("outcome", b.outcome(), 64);
        FailureKind failure = null;
        if (outcome.isEmpty()) {
            throw new IllegalArgumentException("outcome is required: " + outcomes());
        }
        if (!outcome.equals(ReleaseCall.OK) && !outcome.equals(ReleaseCall.ABANDONED)) {
            failure = failureKind(outcome);
        }
        long latency = b.latencyMs() == null ? -1 : b.latencyMs();
        String banned = text("bannedDomain", b.bannedDomain(), 253);
        if (!banned.isEmpty() && !DOMAIN.matcher(banned).matches()) {
            throw new IllegalArgumentException(
                    "bannedDomain must be a host name such as shop.example, got '" + echo(banned) + "'");
        }
        return new ReleaseCall(
                leaseId, outcome, failure, latency, banned.isEmpty() ? null : banned.toLowerCase(Locale.ROOT));
    }

    /** The gateway's failure kind of that wire name. */
    private static FailureKind failureKind(String outcome) {
        for (FailureKind k : FailureKind.values()) {
            if (k.wireName().equals(outcome)) {
                return k;
            }
        }
        throw new IllegalArgumentException("outcome '" + echo(outcome) + "' is unknown: " + outcomes());
    }

    /** The accepted outcomes, for messages. */
    static String outcomes() {
        StringBuilder sb = new StringBuilder("expected ok, abandoned or a failure kind (");
        FailureKind[] kinds = FailureKind.values();
        for (int i = 0; i < kinds.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(kinds[i].wireName());
        }
        return sb.append(')').toString();
    }

    private static JsonNode object(byte[] body) {
        JsonNode v;
        try {
            v = JsonCodec.read(body, JsonCodec.Nesting.REQUEST);
        } catch (MalformedJsonException e) {
            throw new IllegalArgumentException(e.describe("request body"));
        }
        if (!v.isObject()) {
            throw new IllegalArgumentException("request body must be a JSON object, got " + JsonCodec.typeName(v));
        }
        return v;
    }

    /** A string field without control characters, stripped; "" when absent or null. */
    private static String text(String field, String value, int max) {
        if (value == null) {
            return "";
        }
        String s = value.strip();
        if (s.length() > max) {
            throw new IllegalArgumentException(field + " must be at most " + max + " characters, got " + s.length());
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.isISOControl(s.charAt(i))) {
                throw new IllegalArgumentException(field + " must not contain control characters");
            }
        }
        return s;
    }

    /** Caller-supplied text in a message, shortened. */
    static String echo(String s) {
        return RestJson.echo(s);
    }
}
