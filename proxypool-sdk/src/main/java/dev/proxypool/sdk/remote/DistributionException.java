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
        permits DistributionException.InsufficientProxies,
                DistributionException.QuotaExceeded,
                DistributionException.Unauthorized,
                DistributionException.InvalidRequest,
                DistributionException.StoreUnavailable,
                DistributionException.CredentialsUnavailable,
                DistributionException.RequestInProgress,
                DistributionException.IdempotencyMismatch,
                DistributionException.NothingToLease,
                DistributionException.UnknownLease,
                DistributionException.ServerUnreachable,
                DistributionException.UnexpectedResponse {

    /** The HTTP status; 0 when the server never answered. */
    private final int status;
    /** The API's or the client's error code. */
    private final String errorCode;

    private DistributionException(int status, String errorCode, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.errorCode = errorCode;
    }

    /**
     * The HTTP status; 0 when the server never answered.
     *
     * @return the status
     */
    public int status() {
        return status;
    }

    /**
     * The API's {@code error} code ({@code insufficient_proxies}, ...) or a client-side one.
     *
     * @return the error code
     */
    public String errorCode() {
        return errorCode;
    }

    /** {@code 409 insufficient_proxies}: an allOrNothing call could not be met; nothing was extracted. */
    public static final class InsufficientProxies extends DistributionException {
        /** The count asked for. */
        private final int requested;
        /** How many qualified. */
        private final int available;

        /**
         * The {@code 409}.
         *
         * @param requested the count asked for
         * @param available how many qualified
         */
        public InsufficientProxies(int requested, int available) {
            super(
                    409,
                    "insufficient_proxies",
                    "insufficient proxies: requested " + requested + ", available " + available,
                    null);
            this.requested = requested;
            this.available = available;
        }

        /**
         * The count asked for.
         *
         * @return the requested count
         */
        public int requested() {
            return requested;
        }

        /**
         * How many proxies qualified.
         *
         * @return the available count
         */
        public int available() {
            return available;
        }
    }

    /** {@code 429 quota_exceeded}: the client's hourly extraction quota does not allow the call. */
    public static final class QuotaExceeded extends DistributionException {
        /** Proxies per hour allowed. */
        private final int limit;
        /** Proxies handed out in the last hour. */
        private final int used;
        /** When the quota allows the call again. */
        private final Duration retryAfter;

        /**
         * The {@code 429}.
         *
         * @param message    the server's message
         * @param limit      proxies per hour allowed to this client
         * @param used       proxies handed out to this client in the last hour
         * @param retryAfter when the quota allows the call again
         */
        public QuotaExceeded(String message, int limit, int used, Duration retryAfter) {
            super(
                    429,
                    "quota_exceeded",
                    "quota exceeded: " + message + " (used " + used + " of " + limit + ", retry after "
                            + retryAfter.toSeconds() + " s)",
                    null);
            this.limit = limit;
            this.used = used;
            this.retryAfter = retryAfter;
        }

        /**
         * Proxies per hour allowed to this client.
         *
         * @return the hourly limit
         */
        public int limit() {
            return limit;
        }

        /**
         * Proxies handed out to this client in the last hour.
         *
         * @return the count used
         */
        public int used() {
            return used;
        }

        /**
         * When the quota allows the call again (the body's {@code retryAfterSeconds}, else {@code Retry-After}).
         *
         * @return the wait
         */
        public Duration retryAfter() {
            return retryAfter;
        }
    }

    /** {@code 401}/{@code 403}: the token is missing, unknown or not allowed to extract. */
    public static final class Unauthorized extends DistributionException {
        /**
         * The {@code 401} or {@code 403}.
         *
         * @param status  401 or 403
         * @param message the server's message
         */
        public Unauthorized(int status, String message) {
            super(
                    status,
                    status == 403 ? "forbidden" : "unauthorized",
                    (status == 403 ? "forbidden: " : "unauthorized: ") + message,
                    null);
        }
    }

    /** {@code 400}/{@code 413 invalid_request}: the server refused the call; the message names the field. */
    public static final class InvalidRequest extends DistributionException {
        /** The server's own message. */
        private final String serverMessage;

        /**
         * The {@code 400} or {@code 413}.
         *
         * @param status        400 or 413
         * @param serverMessage the server's message, naming the field
         */
        public InvalidRequest(int status, String serverMessage) {
            super(status, "invalid_request", "invalid request: " + serverMessage, null);
            this.serverMessage = serverMessage;
        }

        /**
         * The server's own message, e.g. {@code count must be between 1 and 1000, got 5000}.
         *
         * @return the message
         */
        public String serverMessage() {
            return serverMessage;
        }
    }

    /** {@code 503 store_unavailable}: the shared store is down; nothing was extracted, retrying is safe. */
    public static final class StoreUnavailable extends DistributionException {
        /** The {@code 503 store_unavailable}. */
        public StoreUnavailable() {
            super(503, "store_unavailable", "the server's store is unavailable; nothing was extracted", null);
        }
    }

    /**
     * {@code 503 credentials_unavailable}: an allOrNothing call extracted proxies whose credentials
     * the server could not resolve, so none was handed out (an operator must fix the credential file).
     */
    public static final class CredentialsUnavailable extends DistributionException {
        /**
         * The {@code 503 credentials_unavailable}.
         *
         * @param message the server's message
         */
        public CredentialsUnavailable(String message) {
            super(503, "credentials_unavailable", "credentials unavailable: " + message, null);
        }
    }

    /** {@code 409 request_in_progress}: a request with the same Idempotency-Key is still running. */
    public static final class RequestInProgress extends DistributionException {
        /** The {@code 409 request_in_progress}. */
        public RequestInProgress() {
            super(409, "request_in_progress", "a request with this Idempotency-Key is still in progress", null);
        }
    }

    /** {@code 422 idempotency_key_reused}: the Idempotency-Key was used before with a different body. */
    public static final class IdempotencyMismatch extends DistributionException {
        /** The {@code 422 idempotency_key_reused}. */
        public IdempotencyMismatch() {
            super(422, "idempotency_key_reused", "this Idempotency-Key was used with a different request", null);
        }
    }

    /**
     * {@code 503 no_candidate} / {@code no_route}, {@code 409 session_lost}: an acquire found no proxy
     * to lease now (all busy, cooling, banned for the host, or none matches); nothing was leased.
     */
    public static final class NothingToLease extends DistributionException {
        /**
         * The refusal.
         *
         * @param status    503 or 409
         * @param errorCode {@code no_candidate}, {@code no_route} or {@code session_lost}
         * @param message   the server's message
         */
        public NothingToLease(int status, String errorCode, String message) {
            super(status, errorCode, "nothing to lease (" + errorCode + "): " + message, null);
        }
    }

    /**
     * {@code 404 unknown_lease}, {@code 409 lease_expired}: the release names a lease this client does
     * not hold on that server (never issued there, forgotten, or another client's), or one the server
     * already released at its {@code expiresAt}; the outcome was not recorded.
     */
    public static final class UnknownLease extends DistributionException {
        /**
         * The refusal.
         *
         * @param status    404 or 409
         * @param errorCode {@code unknown_lease} or {@code lease_expired}
         * @param message   the server's message
         */
        public UnknownLease(int status, String errorCode, String message) {
            super(status, errorCode, errorCode.replace('_', ' ') + ": " + message, null);
        }

        /**
         * Whether the server released it at its {@code expiresAt}.
         *
         * @return true for {@code lease_expired}
         */
        public boolean expired() {
            return errorCode().equals("lease_expired");
        }
    }

    /**
     * No complete response: connection refused, timeout, unknown host, TLS failure, connection
     * reset. When the connection broke after the request was sent, the server may have extracted
     * proxies all the same; a retry with the same {@code Idempotency-Key} returns them instead of
     * extracting again.
     */
    public static final class ServerUnreachable extends DistributionException {
        /** The API base that could not be reached. */
        private final URI server;
        /** Why, without secrets. */
        private final String reason;

        /**
         * No complete response from {@code server}.
         *
         * @param server the API base
         * @param reason why, e.g. {@code connection refused}
         * @param cause  the I/O failure
         */
        public ServerUnreachable(URI server, String reason, Throwable cause) {
            super(0, "server_unreachable", "cannot reach " + server + ": " + reason, cause);
            this.server = server;
            this.reason = reason;
        }

        /**
         * The API base that could not be reached.
         *
         * @return the API base
         */
        public URI server() {
            return server;
        }

        /**
         * {@code connection refused}, {@code timed out after 10 s}, ...
         *
         * @return the reason
         */
        public String reason() {
            return reason;
        }
    }

    /** A response outside the contract: another status, a body that is not the API's JSON. */
    public static final class UnexpectedResponse extends DistributionException {
        /**
         * A response outside the contract.
         *
         * @param status    the HTTP status
         * @param errorCode the body's {@code error}, or a client-side code
         * @param message   what was unexpected
         */
        public UnexpectedResponse(int status, String errorCode, String message) {
            super(status, errorCode, "unexpected response HTTP " + status + ": " + message, null);
        }
    }
}
