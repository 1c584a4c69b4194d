package dev.proxypool.server.api.distribution;

/** How one {@code POST /v1/extractions} ended: the closed {@code result} tag of the request counter. */
enum ExtractionOutcome {
    /** 200, every requested proxy handed out. */
    OK("ok"),
    /** 200 with fewer than requested (partial fulfillment, quota, or credentials withheld), possibly 0. */
    PARTIAL("partial"),
    /** 409 insufficient_proxies (allOrNothing, nothing extracted). */
    INSUFFICIENT("insufficient"),
    /** 429 quota_exceeded. */
    QUOTA("quota"),
    /** 400/413 invalid_request. */
    INVALID("invalid"),
    /** 401. */
    UNAUTHORIZED("unauthorized"),
    /** 503 store_unavailable. */
    UNAVAILABLE("unavailable"),
    /** 503 credentials_unavailable (allOrNothing with a proxy whose credentials cannot be resolved). */
    CREDENTIALS("credentials"),
    /** A stored idempotent response replayed. */
    REPLAYED("replayed"),
    /** 409 request_in_progress or 422 idempotency_key_reused. */
    CONFLICT("conflict");

    private final String tag;

    ExtractionOutcome(String tag) {
        this.tag = tag;
    }

    String tag() {
        return tag;
    }
}
