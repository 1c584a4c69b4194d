package dev.proxypool.server.api.distribution;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.Fulfillment;
import java.time.Duration;

/**
 * A parsed, validated {@code POST /v1/extractions} body, before quota and reserve apply.
 *
 * @param count                  1..maxCount
 * @param fulfillment            partial (default) or allOrNothing
 * @param filter                 protocol, upstream and labels (country/region/city/carrier are labels)
 * @param minRemainingTtlSeconds 0 (default) = any unexpired proxy
 */
record ParsedExtraction(int count, Fulfillment fulfillment, ExtractionFilter filter, long minRemainingTtlSeconds) {

    /** The store request for {@code granted} proxies (the quota may lower a partial count). */
    ExtractionRequest toRequest(int granted, int gatewayReserve) {
        return ExtractionRequest.builder(granted)
                .fulfillment(fulfillment)
                .filter(filter)
                .minRemainingTtl(Duration.ofSeconds(minRemainingTtlSeconds))
                .gatewayReserve(gatewayReserve)
                .build();
    }
}
