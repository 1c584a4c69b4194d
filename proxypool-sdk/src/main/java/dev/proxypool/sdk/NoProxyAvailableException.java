package dev.proxypool.sdk;

/** {@link ProxyPool#acquire} found nothing to lease: {@link #reason()} is the wire reason ({@code no_candidate}, {@code session_lost}, {@code no_route}). */
public final class NoProxyAvailableException extends ProxyPoolException {

    private final String reason;
    private final String detail;

    public NoProxyAvailableException(String reason, String detail) {
        super("no proxy available: " + reason + (detail.isEmpty() ? "" : " (" + detail + ")"));
        this.reason = reason;
        this.detail = detail;
    }

    public String reason() {
        return reason;
    }

    /** Why, e.g. {@code busy}, {@code no_match}, {@code unhealthy}. */
    public String detail() {
        return detail;
    }
}
