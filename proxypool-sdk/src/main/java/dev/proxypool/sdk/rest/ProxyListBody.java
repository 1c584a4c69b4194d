package dev.proxypool.sdk.rest;

import java.util.List;

/**
 * The {@code 200} answer of {@code GET /v1/proxy/list}.
 *
 * @param routing the routing the selection reached, or null
 * @param count   how many proxies match (more than listed when over the limit)
 * @param proxies the proxies listed
 */
public record ProxyListBody(String routing, Integer count, List<ListedProxyBody> proxies) {}
