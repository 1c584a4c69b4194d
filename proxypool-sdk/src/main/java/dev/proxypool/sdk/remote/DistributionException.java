package dev.proxypool.sdk.remote;

import dev.proxypool.sdk.ProxyPoolException;
import java.net.URI;
import java.time.Duration;

/**
 * Why an extraction through {@link DistributionClient} did not return proxies: one case per error
 * the Distribution API defines (docs/api.md), plus {@link ServerUnreachable} (nothing answered) and
 * {@link UnexpectedResponse} (something answered that is not the API's contract). Sealed, so callers
 * can {@code switch} over every case:
 *
 * <pre>{@code
 * catch (DistributionException e) {
 *     switch (e) {
 *         case DistributionException.InsufficientProxies i -> retryLater(i.available());
 *         case DistributionException.QuotaExceeded q -> sleep(q.retryAfter());
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>Messages are one line for people and never carry the token or a proxy address.
 * {@link #status()} is the HTTP status, 0 when no response arrived; {@link #errorCode()} is the
 * body's {@code error} value (or a client-side code such as {@code server_unreachable}).
 */
public abstract sealed class DistributionException extends ProxyPoolException
        permits DistributionException.InsufficientProxies, DistributionException.QuotaExceeded,
        DistributionException.Unauthorized, DistributionException.InvalidRequest,
        DistributionException.StoreUnavailable, DistributionException.CredentialsUnavailable,
        DistributionException.RequestInProgress, DistributionException.IdempotencyMismatch,
        DistributionException.ServerUnreachable, DistributionException.UnexpectedResponse {

    private final int status;
    private final String errorCode;

    private DistributionException(int status, String errorCode, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.errorCode = errorCode;
    }

    /** The HTTP status; 0 when the server never answered. */
    public int status() {
        return status;
    }

    /** The API's {@code error} code ({@code insufficient_proxies}, ...) or a client-side one. */
    public String errorCode() {
        return errorCode;
    }

    /** {@code 409 insufficient_proxies}: an allOrNothing call could not be met; nothing was extracted. */
    public static final class InsufficientProxies extends DistributionException {
        private final int requested;
        private final int available;

        public InsufficientProxies(int requested, int available) {
            super(409, "insufficient_proxies", "insufficient proxies: requested " + requested + ", available "
                    + available, null);
            this.requested = requested;
            this.available = available;
        }

        public int requested() {
            return requested;
        }

        public int available() {
            return available;
        }
    }

    /** {@code 429 quota_exceeded}: the client's hourly extraction quota does not allow the call. */
    public static final class QuotaExceeded extends DistributionException {
        private final int limit;
        private final int used;
        private final Duration retryAfter;

        public QuotaExceeded(String message, int limit, int used, Duration retryAfter) {
            super(429, "quota_exceeded", "quota exceeded: " + message + " (used " + used + " of " + limit
                    + ", retry after " + retryAfter.toSeconds() + " s)", null);
            this.limit = limit;
            this.used = used;
            this.retryAfter = retryAfter;
        }

        /** Proxies per hour allowed to this client. */
        public int limit() {
            return limit;
        }

        /** Proxies handed out to this client in the last hour. */
        public int used() {
            return used;
        }

        /** When the quota allows the call again (the body's {@code retryAfterSeconds}, else {@code Retry-After}). */
        public Duration retryAfter() {
            return retryAfter;
        }
    }

    /** {@code 401}/{@code 403}: the token is missing, unknown or not allowed to extract. */
    public static final class Unauthorized extends DistributionException {
        public Unauthorized(int status, String message) {
            super(status, status == 403 ? "forbidden" : "unauthorized", (status == 403 ? "forbidden: " : "unauthorized: ")
                    + message, null);
        }
    }

    /** {@code 400}/{@code 413 invalid_request}: the server refused the call; the message names the field. */
    public static final class InvalidRequest extends DistributionException {
        private final String serverMessage;

        public InvalidRequest(int status, String serverMessage) {
            super(status, "invalid_request", "invalid request: " + serverMessage, null);
            this.serverMessage = serverMessage;
        }

        /** The server's own message, e.g. {@code count must be between 1 and 1000, got 5000}. */
        public String serverMessage() {
            return serverMessage;
        }
    }

    /** {@code 503 store_unavailable}: the shared store is down; nothing was extracted, retrying is safe. */
    public static final class StoreUnavailable extends DistributionException {
        public StoreUnavailable() {
            super(503, "store_unavailable", "the server's store is unavailable; nothing was extracted", null);
        }
    }

    /**
     * {@code 503 credentials_unavailable}: an allOrNothing call extracted proxies whose credentials
     * the server could not resolve, so none was handed out (an operator must fix the credential file).
     */
    public static final class CredentialsUnavailable extends DistributionException {
        public CredentialsUnavailable(String message) {
            super(503, "credentials_unavailable", "credentials unavailable: " + message, null);
        }
    }

    /** {@code 409 request_in_progress}: a request with the same Idempotency-Key is still running. */
    public static final class RequestInProgress extends DistributionException {
        public RequestInProgress() {
            super(409, "request_in_progress", "a request with this Idempotency-Key is still in progress", null);
        }
    }

    /** {@code 422 idempotency_key_reused}: the Idempotency-Key was used before with a different body. */
    public static final class IdempotencyMismatch extends DistributionException {
        public IdempotencyMismatch() {
            super(422, "idempotency_key_reused", "this Idempotency-Key was used with a different request", null);
        }
    }

    /**
     * No complete response: connection refused, timeout, unknown host, TLS failure, connection
     * reset. When the connection broke after the request was sent, the server may have extracted
     * proxies all the same; a retry with the same {@code Idempotency-Key} returns them instead of
     * extracting again.
     */
    public static final class ServerUnreachable extends DistributionException {
        private final URI server;
        private final String reason;

        public ServerUnreachable(URI server, String reason, Throwable cause) {
            super(0, "server_unreachable", "cannot reach " + server + ": " + reason, cause);
            this.server = server;
            this.reason = reason;
        }

        /** The API base that could not be reached. */
        public URI server() {
            return server;
        }

        /** {@code connection refused}, {@code timed out after 10 s}, ... */
        public String reason() {
            return reason;
        }
    }

    /** A response outside the contract: another status, a body that is not the API's JSON. */
    public static final class UnexpectedResponse extends DistributionException {
        public UnexpectedResponse(int status, String errorCode, String message) {
            super(status, errorCode, "unexpected response HTTP " + status + ": " + message, null);
        }
    }
}
