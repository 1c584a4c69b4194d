package dev.proxypool.server.gateway;

import java.util.Locale;

/** How one gateway request or tunnel ended: the {@code result} metric tag (a closed set). */
public enum ExchangeResult {
    /** A response from the destination (any status) was relayed, or a tunnel ran. */
    OK,
    /** The engine rejected the request (no_candidate, no_route, rate_limited, ...). */
    REJECTED,
    /** 407: missing or wrong credentials. */
    AUTH_REQUIRED,
    /** 400/431: bad input from the client. */
    BAD_REQUEST,
    /** 502/504: every attempt through an upstream failed. */
    UPSTREAM_FAILED,
    /** The client went away or the exchange broke after the response had started. */
    ABORTED;

    private final String tag = name().toLowerCase(Locale.ROOT);

    public String tag() {
        return tag;
    }
}
