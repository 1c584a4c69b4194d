package dev.proxypool.sdk.validate;

import dev.proxypool.core.health.FailureKind;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One HTTP response read through a proxy by {@link ProxiedExchange}: status, header fields in order,
 * the body (empty when not read) and the full latency of the exchange. Immutable.
 */
public final class HttpReply {

    private final int status;
    private final List<Map.Entry<String, String>> fields;
    private final byte[] body;
    private final Duration latency;

    HttpReply(int status, List<Map.Entry<String, String>> fields, byte[] body, Duration latency) {
        this.status = status;
        this.fields = List.copyOf(fields);
        this.body = body;
        this.latency = latency;
    }

    public int status() {
        return status;
    }

    /** Header fields as received, in order. */
    public List<Map.Entry<String, String>> fields() {
        return fields;
    }

    /** The first value of a header, case-insensitive. */
    public Optional<String> header(String name) {
        for (Map.Entry<String, String> f : fields) {
            if (f.getKey().equalsIgnoreCase(name)) {
                return Optional.of(f.getValue());
            }
        }
        return Optional.empty();
    }

    /** A copy of the body bytes (de-chunked). */
    public byte[] body() {
        return body.clone();
    }

    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** From the start of the dial to the last byte read, by the exchange's ticker. */
    public Duration latency() {
        return latency;
    }

    /** 2xx or 3xx: the proxy delivered the request and the target answered it. */
    public boolean delivered() {
        return status >= 200 && status < 400;
    }

    /**
     * The proxy's own failure statuses as a {@link FailureKind}: {@code 407} → credentials rejected;
     * {@code 502}, {@code 503}, {@code 504} → the proxy could not reach the target. Empty otherwise.
     */
    public Optional<FailureKind> proxyFailure() {
        return switch (status) {
            case 407 -> Optional.of(FailureKind.PROXY_AUTH_REJECTED);
            case 502, 503, 504 -> Optional.of(FailureKind.UPSTREAM_UNREACHABLE);
            default -> Optional.empty();
        };
    }

    @Override
    public String toString() {
        return "HttpReply[" + status + ", " + body.length + " bytes, " + latency.toMillis() + " ms]";
    }
}
