package dev.proxypool.sdk.rest;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The body of {@code POST /v1/extractions}.
 *
 * @param count                  how many proxies (required)
 * @param fulfillment            {@code partial} (default) or {@code allOrNothing}
 * @param filter                 which proxies; absent is any
 * @param minRemainingTtlSeconds the shortest remaining lifetime a proxy may have
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExtractionRequestBody(
        Long count, String fulfillment, SelectionBody filter, Long minRemainingTtlSeconds) {}
