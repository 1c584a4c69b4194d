package dev.proxypool.server.api.distribution;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.sdk.rest.SelectionBody;

/**
 * The Distribution API's selection ({@code filter}: protocol, country, region, city, carrier,
 * upstream, labels) for other endpoints that select proxies the same way (the remote acquire API):
 * one reading, one set of error messages.
 */
public final class SelectionJson {

    private SelectionJson() {}

    /**
     * The selection of a {@code filter} bound and checked by {@code RestJson.strict}, exactly as
     * {@code POST /v1/extractions} reads it.
     *
     * @param filter the filter, or null (any proxy)
     * @return the selection
     * @throws IllegalArgumentException naming the bad field ({@code filter.protocol must be ...})
     */
    public static ExtractionFilter filter(SelectionBody filter) {
        try {
            return ExtractionJson.filter(filter);
        } catch (InvalidRequestException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }
}
