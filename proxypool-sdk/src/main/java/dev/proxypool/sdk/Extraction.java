package dev.proxypool.sdk;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.Fulfillment;
import dev.proxypool.core.model.Protocol;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * An exclusive extraction, built fluently:
 * {@code Extraction.of(5).protocol(HTTP).country("US").allOrNothing()}. Extracted proxies leave the
 * pool for good (docs/design.md#extraction, E2).
 *
 * <p>Immutable, like {@link Selection}: every method returns a new extraction and leaves this one
 * unchanged, so a base extraction can be shared and refined by many threads. Filter terms are
 * validated as they are set.
 */
public final class Extraction {

    private final int count;
    private final Fulfillment fulfillment;
    /** The filter terms in the order they were set; replayed on a fresh builder for each request. */
    private final List<Consumer<ExtractionFilter.Builder>> terms;
    private final Duration minRemainingTtl;
    private final Duration maxHealthAge;

    private Extraction(int count, Fulfillment fulfillment, List<Consumer<ExtractionFilter.Builder>> terms,
                       Duration minRemainingTtl, Duration maxHealthAge) {
        this.count = count;
        this.fulfillment = fulfillment;
        this.terms = terms;
        this.minRemainingTtl = minRemainingTtl;
        this.maxHealthAge = maxHealthAge;
    }

    /**
     * Extract up to {@code count} proxies (1..1000), any filter, partial.
     *
     * @param count how many proxies to extract
     * @return the extraction
     */
    public static Extraction of(int count) {
        return new Extraction(count, Fulfillment.PARTIAL, List.of(), Duration.ZERO, Duration.ZERO);
    }

    /**
     * Only proxies speaking {@code p}.
     *
     * @param p the protocol
     * @return a new extraction with this term
     */
    public Extraction protocol(Protocol p) {
        return with(f -> f.protocol(p));
    }

    /**
     * Only proxies labelled with country {@code c}.
     *
     * @param c the country code, e.g. {@code US}
     * @return a new extraction with this term
     */
    public Extraction country(String c) {
        return with(f -> f.country(c));
    }

    /**
     * Only proxies labelled with region {@code r}.
     *
     * @param r the region
     * @return a new extraction with this term
     */
    public Extraction region(String r) {
        return with(f -> f.region(r));
    }

    /**
     * Only proxies labelled with city {@code c}.
     *
     * @param c the city
     * @return a new extraction with this term
     */
    public Extraction city(String c) {
        return with(f -> f.city(c));
    }

    /**
     * Only proxies labelled with carrier {@code c}.
     *
     * @param c the carrier
     * @return a new extraction with this term
     */
    public Extraction carrier(String c) {
        return with(f -> f.carrier(c));
    }

    /**
     * Only proxies of the upstream {@code u}.
     *
     * @param u the upstream's name
     * @return a new extraction with this term
     */
    public Extraction upstream(String u) {
        return with(f -> f.upstream(u));
    }

    /**
     * Only proxies carrying the label {@code key=value}.
     *
     * @param key   the label's key
     * @param value the label's value
     * @return a new extraction with this term
     */
    public Extraction label(String key, String value) {
        return with(f -> f.label(key, value));
    }

    /**
     * Only proxies with at least {@code d} of life left.
     *
     * @param d the minimum remaining lifetime; zero for any unexpired proxy
     * @return a new extraction with this bound
     */
    public Extraction minRemainingTtl(Duration d) {
        return new Extraction(count, fulfillment, terms, d, maxHealthAge);
    }

    /**
     * Only proxies whose health was confirmed within {@code d}.
     *
     * @param d the maximum health age; zero for no bound
     * @return a new extraction with this bound
     */
    public Extraction maxHealthAge(Duration d) {
        return new Extraction(count, fulfillment, terms, minRemainingTtl, d);
    }

    /**
     * Extract exactly {@code count} or nothing.
     *
     * @return a new, all-or-nothing extraction
     */
    public Extraction allOrNothing() {
        return new Extraction(count, Fulfillment.ALL_OR_NOTHING, terms, minRemainingTtl, maxHealthAge);
    }

    /**
     * Extract as many as possible up to {@code count} (the default).
     *
     * @return a new, partial extraction
     */
    public Extraction partial() {
        return new Extraction(count, Fulfillment.PARTIAL, terms, minRemainingTtl, maxHealthAge);
    }

    /**
     * The validated core request; bad values throw {@link IllegalArgumentException} naming them.
     *
     * @param gatewayReserve how many proxies stay in the pool for the gateway
     * @return the request
     */
    public ExtractionRequest toRequest(int gatewayReserve) {
        return new ExtractionRequest(count, fulfillment, filter(terms), minRemainingTtl, maxHealthAge, gatewayReserve);
    }

    private Extraction with(Consumer<ExtractionFilter.Builder> term) {
        List<Consumer<ExtractionFilter.Builder>> next = new ArrayList<>(terms);
        next.add(term);
        filter(next); // a bad value fails here, naming it, as the term is set
        return new Extraction(count, fulfillment, List.copyOf(next), minRemainingTtl, maxHealthAge);
    }

    private static ExtractionFilter filter(List<Consumer<ExtractionFilter.Builder>> terms) {
        ExtractionFilter.Builder b = ExtractionFilter.builder();
        for (Consumer<ExtractionFilter.Builder> t : terms) {
            t.accept(b);
        }
        return b.build();
    }
}
