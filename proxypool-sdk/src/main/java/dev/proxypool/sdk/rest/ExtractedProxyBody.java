package dev.proxypool.sdk.rest;

import java.util.Map;

/**
 * One proxy of an extraction's answer; {@code expiresAt} and {@code remainingTtlSeconds} are
 * written as {@code null} for a proxy that never expires.
 *
 * @param id                  the proxy's id
 * @param url                 its URL, credentials included: never log it
 * @param protocol            its protocol's wire name
 * @param host                its host
 * @param port                its port
 * @param labels              its labels
 * @param expiresAt           when it expires (ISO-8601), or null
 * @param remainingTtlSeconds whole seconds left at extraction, or null
 */
public record ExtractedProxyBody(
        String id,
        String url,
        String protocol,
        String host,
        Integer port,
        Map<String, String> labels,
        String expiresAt,
        Long remainingTtlSeconds) {}
