package dev.proxypool.server.api.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.core.extract.ExtractionFilter;

/**
 * The Distribution API's selection ({@code filter}: protocol, country, region, city, carrier,
 * upstream, labels) for other endpoints that select proxies the same way (the remote acquire API):
 * one parser, one set of error messages.
 */
public final class SelectionJson {

    private SelectionJson() {}

    /**
     * Reads a {@code filter} object exactly as {@code POST /v1/extractions} does.
     *
     * @param filter the JSON object (not null)
     * @return the selection
     * @throws IllegalArgumentException naming the bad field ({@code filter.protocol must be ...})
     */
    public static ExtractionFilter filter(JsonNode filter) {
        try {
            return ExtractionJson.filterObject(filter);
        } catch (InvalidRequestException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }
}
