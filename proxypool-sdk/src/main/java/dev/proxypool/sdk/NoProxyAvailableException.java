package dev.proxypool.sdk;

/** {@link ProxyPool#acquire} found nothing to lease: {@link #reason()} is the wire reason ({@code no_candidate}, {@code session_lost}, {@code no_route}). */
public final class NoProxyAvailableException extends ProxyPoolException {

    /** The wire reason. */
    private final String reason;
    /** Why, for logs. */
    private final String detail;

    /**
     * The failure of one acquire.
     *
     * @param reason the wire reason, e.g. {@code no_candidate}
     * @param detail why, for logs (never an address); empty when there is nothing to add
     */
    public NoProxyAvailableException(String reason, String detail) {
        super("no proxy available: " + reason + (detail.isEmpty() ? "" : " (" + detail + ")"));
        this.reason = reason;
        this.detail = detail;
    }

    /**
     * The wire reason: {@code no_candidate}, {@code session_lost} or {@code no_route}.
     *
     * @return the reason
     */
    public String reason() {
        return reason;
    }

    /**
     * Why, e.g. {@code busy}, {@code no_match}, {@code unhealthy}.
     *
     * @return the detail; empty when there is none
     */
    public String detail() {
        return detail;
    }
}
