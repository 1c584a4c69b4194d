package dev.proxypool.server.gateway;

/**
 * The machine-readable reasons the gateway puts in {@code X-ProxyPool-Error} (docs/design.md#gateway-flow, G3), and the
 * only values the {@code reason} metric tag takes, so metrics stay low-cardinality.
 */
public final class GatewayErrors {

    /** Nothing in the pool matched the request's filters. 503. */
    public static final String NO_CANDIDATE = "no_candidate";
    /** No routing matched the request. 503 (or 403 when configured so). */
    public static final String NO_ROUTE = "no_route";
    /** The client exceeded its rate limit. 429. */
    public static final String RATE_LIMITED = "rate_limited";
    /** The destination is denied by the destination check (docs/design.md#security, X4). 403. */
    public static final String DESTINATION_DENIED = "destination_denied";
    /** Every attempt through an upstream proxy failed. 502. */
    public static final String UPSTREAM_FAILED = "upstream_failed";
    /** A strict sticky session lost its proxy. 502. */
    public static final String SESSION_LOST = "session_lost";
    /** The username and the session header name different sticky sessions (docs/design.md#sticky-sessions, S1). 400. */
    public static final String SESSION_CONFLICT = "session_conflict";
    /** Missing or wrong {@code Proxy-Authorization}. 407. */
    public static final String AUTH_REQUIRED = "auth_required";
    /** Malformed request line, header, framing, or target. 400. */
    public static final String BAD_REQUEST = "bad_request";
    /** A request to the proxy in origin-form ({@code GET /path}). 400. */
    public static final String ORIGIN_FORM = "origin_form_not_allowed";
    /** A method this proxy does not forward ({@code PRI}, garbage). 400. */
    public static final String UNSUPPORTED_METHOD = "unsupported_method";
    /** A scheme other than {@code http} in absolute-form. 400. */
    public static final String UNSUPPORTED_SCHEME = "unsupported_scheme";
    /** A bad {@code CONNECT} authority. 400. */
    public static final String BAD_CONNECT_TARGET = "bad_connect_target";
    /** Request line above the limit (8 KiB). 431, like an oversized header block. */
    public static final String REQUEST_LINE_TOO_LONG = "request_line_too_long";
    /** Header block above the limit (64 KiB). 431. */
    public static final String HEADERS_TOO_LARGE = "headers_too_large";
    /** Both Content-Length and Transfer-Encoding, disagreeing lengths, or a malformed chunked request body. 400. */
    public static final String BAD_FRAMING = "bad_framing";
    /** The request head did not arrive whole within {@code server.requestHeadTimeout}. 408. */
    public static final String REQUEST_TIMEOUT = "request_timeout";
    /** The upstream's response could not be parsed. 502. */
    public static final String UPSTREAM_PROTOCOL = "upstream_protocol_error";
    /** The upstream did not answer in time. 504. */
    public static final String UPSTREAM_TIMEOUT = "upstream_timeout";
    /** The gateway is shutting down. 503. */
    public static final String SHUTTING_DOWN = "shutting_down";
    /**
     * The gateway's off-loop executor (password hashing, name lookups) has no room for the request: retry
     * later. 503.
     */
    public static final String OVERLOADED = "overloaded";

    private GatewayErrors() {}
}
