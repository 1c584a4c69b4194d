package dev.proxypool.sdk.rest;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Every error answer of the REST API: a stable {@code error} code, a {@code message} for people,
 * and the fields some codes add; absent fields are not written.
 *
 * @param error             the code ({@code invalid_request}, {@code insufficient_proxies}, ...)
 * @param message           what went wrong
 * @param requested         {@code insufficient_proxies}: the count asked for
 * @param available         {@code insufficient_proxies}: how many qualified
 * @param limit             {@code quota_exceeded}: the hourly quota
 * @param used              {@code quota_exceeded}: how much of it is used
 * @param retryAfterSeconds {@code quota_exceeded}: when to try again
 * @param leaseId           {@code lease_expired}: the lease
 * @param expiresAt         {@code lease_expired}: when it expired (ISO-8601)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ErrorBody(
        String error,
        String message,
        Integer requested,
        Integer available,
        Integer limit,
        Integer used,
        Long retryAfterSeconds,
        String leaseId,
        String expiresAt) {

    /**
     * {@code {"error": code, "message": message}}.
     *
     * @param error   the code
     * @param message what went wrong
     * @return the body
     */
    public static ErrorBody of(String error, String message) {
        return new ErrorBody(error, message, null, null, null, null, null, null, null);
    }

    /**
     * {@code {"error": code}}.
     *
     * @param error the code
     * @return the body
     */
    public static ErrorBody of(String error) {
        return of(error, null);
    }
}
