package dev.proxypool.sdk.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * Which proxies a call selects (the {@code filter} of {@code POST /v1/extractions} and
 * {@code POST /v1/proxy/acquire}); every field optional, {@code null} is absent.
 *
 * @param protocol {@code http}, {@code https}, {@code socks4} or {@code socks5}
 * @param country  the {@code country} label
 * @param region   the {@code region} label
 * @param city     the {@code city} label
 * @param carrier  the {@code carrier} label
 * @param upstream the upstream's name
 * @param labels   more required labels
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SelectionBody(
        String protocol,
        String country,
        String region,
        String city,
        String carrier,
        String upstream,
        Map<String, String> labels) {}
