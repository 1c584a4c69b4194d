package dev.proxypool.sdk;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.Fulfillment;
import dev.proxypool.core.model.Protocol;
import java.time.Duration;

/**
 * An exclusive extraction, built fluently:
 * {@code Extraction.of(5).protocol(HTTP).country("US").allOrNothing()}. Extracted proxies leave the
 * pool for good (docs/design.md#extraction, E2).
 */
public final class Extraction {

    private final int count;
    private Fulfillment fulfillment = Fulfillment.PARTIAL;
    private final ExtractionFilter.Builder filter = ExtractionFilter.builder();
    private Duration minRemainingTtl = Duration.ZERO;
    private Duration maxHealthAge = Duration.ZERO;

    private Extraction(int count) {
        this.count = count;
    }

    /** Extract up to {@code count} proxies (1..1000). */
    public static Extraction of(int count) {
        return new Extraction(count);
    }

    public Extraction protocol(Protocol p) {
        filter.protocol(p);
        return this;
    }

    public Extraction country(String c) {
        filter.country(c);
        return this;
    }

    public Extraction region(String r) {
        filter.region(r);
        return this;
    }

    public Extraction city(String c) {
        filter.city(c);
        return this;
    }

    public Extraction carrier(String c) {
        filter.carrier(c);
        return this;
    }

    public Extraction upstream(String u) {
        filter.upstream(u);
        return this;
    }

    public Extraction label(String key, String value) {
        filter.label(key, value);
        return this;
    }

    public Extraction minRemainingTtl(Duration d) {
        minRemainingTtl = d;
        return this;
    }

    public Extraction maxHealthAge(Duration d) {
        maxHealthAge = d;
        return this;
    }

    /** Extract exactly {@code count} or nothing. */
    public Extraction allOrNothing() {
        fulfillment = Fulfillment.ALL_OR_NOTHING;
        return this;
    }

    /** Extract as many as possible up to {@code count} (the default). */
    public Extraction partial() {
        fulfillment = Fulfillment.PARTIAL;
        return this;
    }

    /** The validated core request; bad values throw {@link IllegalArgumentException} naming them. */
    public ExtractionRequest toRequest(int gatewayReserve) {
        return new ExtractionRequest(count, fulfillment, filter.build(), minRemainingTtl, maxHealthAge, gatewayReserve);
    }
}
