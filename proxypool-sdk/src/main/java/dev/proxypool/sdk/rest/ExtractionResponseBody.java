package dev.proxypool.sdk.rest;

import java.util.List;

/**
 * The {@code 200} answer of {@code POST /v1/extractions}.
 *
 * @param requested the count asked for
 * @param extracted how many came out
 * @param proxies   the proxies
 */
public record ExtractionResponseBody(Integer requested, Integer extracted, List<ExtractedProxyBody> proxies) {}
