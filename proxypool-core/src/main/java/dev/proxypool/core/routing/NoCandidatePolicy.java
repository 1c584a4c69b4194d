package dev.proxypool.core.routing;

import java.util.Locale;

/** What a routing does when no proxy qualifies ({@code routings[].onNoCandidate}). */
public enum NoCandidatePolicy {
    /** 503 with {@code X-ProxyPool-Error: no_candidate} (default). */
    REJECT,
    /** Wait for capacity up to the rule's timeout, then 503. */
    WAIT,
    /** Connect to the destination directly (only when explicitly configured). */
    DIRECT;

    /**
     * Parses the config value, case-insensitively.
     *
     * @param value {@code reject}, {@code wait} or {@code direct}
     * @return the policy
     * @throws IllegalArgumentException if the value is null or none of those
     */
    public static NoCandidatePolicy parse(String value) {
        if (value != null) {
            switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "reject":
                    return REJECT;
                case "wait":
                    return WAIT;
                case "direct":
                    return DIRECT;
                default:
                    break;
            }
        }
        throw new IllegalArgumentException("unknown onNoCandidate '" + value + "' (expected reject, wait or direct)");
    }

    /**
     * The name used in config and admin output.
     *
     * @return the lower-case constant name, which {@link #parse(String)} accepts
     */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
