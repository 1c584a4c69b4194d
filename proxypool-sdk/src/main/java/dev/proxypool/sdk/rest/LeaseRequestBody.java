package dev.proxypool.sdk.rest;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The body of {@code POST /v1/proxy/acquire}; every field optional (an empty body asks for any proxy).
 *
 * @param host        the host the proxy will be used for (routing and bans)
 * @param key         a sticky key
 * @param routing     a routing's name
 * @param filter      which proxies
 * @param session     a session that keeps the same proxy
 * @param holdSeconds how long the lease may be held
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LeaseRequestBody(
        String host, String key, String routing, SelectionBody filter, String session, Long holdSeconds) {}
