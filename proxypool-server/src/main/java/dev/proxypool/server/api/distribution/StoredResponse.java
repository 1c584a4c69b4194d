package dev.proxypool.server.api.distribution;

/**
 * A response as the idempotency record keeps it: {@code "<status>\n<body>"}. The body is the very
 * string whose UTF-8 bytes were sent the first time, so a replay is byte-for-byte identical.
 */
record StoredResponse(int status, String body) {

    StoredResponse {
        if (status < 100 || status > 599 || body == null) {
            throw new IllegalArgumentException("stored response needs a status 100..599 and a body");
        }
    }

    String encode() {
        return status + "\n" + body;
    }

    /** @throws IllegalArgumentException when {@code stored} was not written by {@link #encode()} */
    static StoredResponse decode(String stored) {
        int nl = stored.indexOf('\n');
        if (nl != 3) {
            throw new IllegalArgumentException("stored idempotent response is malformed");
        }
        int status;
        try {
            status = Integer.parseInt(stored, 0, 3, 10);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("stored idempotent response has no status");
        }
        return new StoredResponse(status, stored.substring(4));
    }
}
