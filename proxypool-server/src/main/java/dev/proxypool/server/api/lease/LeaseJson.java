package dev.proxypool.server.api.lease;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.json.MalformedJsonException;
import dev.proxypool.server.api.distribution.SelectionJson;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Iterator;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the acquire and release bodies strictly, as the Distribution API reads its own: unknown
 * keys, wrong types, fractions, out-of-range numbers, a key given twice are refused with a message
 * naming the field ({@link IllegalArgumentException}); {@code null} counts as absent.
 */
final class LeaseJson {

    private static final Set<String> ACQUIRE = Set.of("host", "key", "routing", "filter", "session", "holdSeconds");
    private static final Set<String> RELEASE = Set.of("leaseId", "outcome", "latencyMs", "bannedDomain");
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
        onlyKnown(o, ACQUIRE, "host, key, routing, filter, session, holdSeconds");
        String host = text(o, "host", 253);
        if (!host.isEmpty() && !HOST.matcher(host).matches()) {
            throw new IllegalArgumentException(
                    "host must be a host name or IP address such as shop.example, got '" + echo(host) + "'");
        }
        String key = text(o, "key", MAX_TEXT);
        String routing = text(o, "routing", MAX_TEXT);
        String session = text(o, "session", MAX_TEXT);
        ExtractionFilter filter = SelectionJson.filter(o.get("filter"));
        Duration hold = defaultHold;
        JsonNode h = o.get("holdSeconds");
        if (h != null && !h.isNull()) {
            hold = Duration.ofSeconds(integer("holdSeconds", h, 1, Math.max(1, maxHold.toSeconds())));
        }
        return new AcquireCall(host.toLowerCase(Locale.ROOT), key, routing, filter, session, hold);
    }

    /** A release body. */
    static ReleaseCall release(byte[] body) {
        if (body.length == 0) {
            throw new IllegalArgumentException(
                    "request body is empty (expected a JSON object {\"leaseId\", \"outcome\"})");
        }
        JsonNode o = object(body);
        onlyKnown(o, RELEASE, "leaseId, outcome, latencyMs, bannedDomain");
        String leaseId = text(o, "leaseId", 64);
        if (leaseId.isEmpty()) {
            throw new IllegalArgumentException("leaseId is required (the leaseId of the acquire answer)");
        }
        if (!LEASE_ID.matcher(leaseId).matches()) {
            throw new IllegalArgumentException("leaseId '" + echo(leaseId) + "' is not a lease id");
        }
        String outcome = text(o, "outcome", 64);
        FailureKind failure = null;
        if (outcome.isEmpty()) {
            throw new IllegalArgumentException("outcome is required: " + outcomes());
        }
        if (!outcome.equals(ReleaseCall.OK) && !outcome.equals(ReleaseCall.ABANDONED)) {
            failure = failureKind(outcome);
        }
        long latency = -1;
        JsonNode l = o.get("latencyMs");
        if (l != null && !l.isNull()) {
            latency = integer("latencyMs", l, 0, MAX_LATENCY_MS);
        }
        String banned = text(o, "bannedDomain", 253);
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

    private static void onlyKnown(JsonNode o, Set<String> known, String expected) {
        for (Iterator<String> keys = o.fieldNames(); keys.hasNext(); ) {
            String k = keys.next();
            if (!known.contains(k)) {
                throw new IllegalArgumentException("unknown field '" + echo(k) + "' (expected " + expected + ")");
            }
        }
    }

    /** A string field without control characters, "" when absent or null. */
    private static String text(JsonNode o, String field, int max) {
        JsonNode v = o.get(field);
        if (v == null || v.isNull()) {
            return "";
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException(field + " must be a string, got " + JsonCodec.typeName(v));
        }
        String s = v.textValue().strip();
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

    private static long integer(String field, JsonNode v, long min, long max) {
        if (!v.isNumber()) {
            throw new IllegalArgumentException(field + " must be an integer, got " + JsonCodec.typeName(v));
        }
        BigDecimal n = v.decimalValue();
        String shown = echo(n.toString());
        if (n.signum() != 0 && n.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException(field + " must be an integer, got " + shown);
        }
        if (n.compareTo(BigDecimal.valueOf(min)) < 0 || n.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new IllegalArgumentException(field + " must be between " + min + " and " + max + ", got " + shown);
        }
        return n.longValueExact();
    }

    /** Caller-supplied text in a message, shortened. */
    static String echo(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "...";
    }
}
