package dev.proxypool.sdk;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.Fulfillment;
import dev.proxypool.core.model.Protocol;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * An exclusive extraction, built fluently:
 * {@code Extraction.of(5).protocol(HTTP).country("US").allOrNothing()}. Extracted proxies leave the
 * pool for good (docs/design.md#extraction, E2).
 *
 * <p>The one request type of both extraction paths: {@link ProxyPool#extract(Extraction)} in
 * process, and {@link dev.proxypool.sdk.remote.DistributionClient#extract(Extraction)} against a
 * running server ({@code POST /v1/extractions}). Both answer an {@link ExtractionResponse}.
 *
 * <p>Immutable, like {@link Selection}: every method returns a new extraction and leaves this one
 * unchanged, so a base extraction can be shared and refined by many threads. The count and the
 * filter terms are validated as they are set, with the server's own limits, so a bad value fails
 * here naming it instead of as a {@code 400} later.
 */
public final class Extraction {

    /** Longest {@code Idempotency-Key} the server accepts. */
    public static final int MAX_IDEMPOTENCY_KEY_LENGTH = 255;

    private final int count;
    private final Fulfillment fulfillment;
    /** The filter terms in the order they were set; replayed on a fresh builder for each request. */
    private final List<Consumer<ExtractionFilter.Builder>> terms;

    private final Duration minRemainingTtl;
    private final Duration maxHealthAge;
    /** Null for none. */
    private final String idempotencyKey;

    private Extraction(
            int count,
            Fulfillment fulfillment,
            List<Consumer<ExtractionFilter.Builder>> terms,
            Duration minRemainingTtl,
            Duration maxHealthAge,
            String idempotencyKey) {
        this.count = count;
        this.fulfillment = fulfillment;
        this.terms = terms;
        this.minRemainingTtl = minRemainingTtl;
        this.maxHealthAge = maxHealthAge;
        this.idempotencyKey = idempotencyKey;
    }

    /**
     * Extract up to {@code count} proxies, any filter, partial.
     *
     * @param count how many proxies to extract, 1..{@value ExtractionRequest#MAX_COUNT} (a server may allow fewer)
     * @return the extraction
     * @throws IllegalArgumentException when {@code count} is out of range
     */
    public static Extraction of(int count) {
        if (count < 1 || count > ExtractionRequest.MAX_COUNT) {
            throw new IllegalArgumentException(
                    "count must be between 1 and " + ExtractionRequest.MAX_COUNT + ", got " + count);
        }
        return new Extraction(count, Fulfillment.PARTIAL, List.of(), Duration.ZERO, Duration.ZERO, null);
    }

    /**
     * How many proxies this extraction asks for.
     *
     * @return the count, 1..{@value ExtractionRequest#MAX_COUNT}
     */
    public int count() {
        return count;
    }

    /**
     * Whether exactly {@link #count()} proxies or nothing are extracted.
     *
     * @return true after {@link #allOrNothing()}, false for a partial extraction (the default)
     */
    public boolean isAllOrNothing() {
        return fulfillment == Fulfillment.ALL_OR_NOTHING;
    }

    /**
     * The idempotency key a remote extraction sends as {@code Idempotency-Key}.
     *
     * @return the key, or empty when none was set
     */
    public Optional<String> idempotencyKey() {
        return Optional.ofNullable(idempotencyKey);
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
        if (d == null || d.isNegative()) {
            throw new IllegalArgumentException("minRemainingTtl must not be negative, got " + d);
        }
        return new Extraction(count, fulfillment, terms, d, maxHealthAge, idempotencyKey);
    }

    /**
     * Only proxies whose health was confirmed within {@code d}. In process only: the Distribution
     * API has no such field, so {@link dev.proxypool.sdk.remote.DistributionClient} refuses an
     * extraction that sets it.
     *
     * @param d the maximum health age; zero for no bound
     * @return a new extraction with this bound
     */
    public Extraction maxHealthAge(Duration d) {
        if (d == null || d.isNegative()) {
            throw new IllegalArgumentException("maxHealthAge must not be negative, got " + d);
        }
        return new Extraction(count, fulfillment, terms, minRemainingTtl, d, idempotencyKey);
    }

    /**
     * For a remote extraction: the same key and body later returns the stored response instead of
     * extracting again, so a call whose outcome is unknown (a timeout) can be retried safely. An
     * in-process extraction ({@link ProxyPool#extract}) has no lost response to replay and ignores it.
     *
     * @param key 1..{@value #MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters
     * @return a new extraction with this key
     * @throws IllegalArgumentException when the key is empty, too long or not printable ASCII
     */
    public Extraction idempotencyKey(String key) {
        if (key == null || key.isEmpty() || key.length() > MAX_IDEMPOTENCY_KEY_LENGTH) {
            throw new IllegalArgumentException("Idempotency-Key must be 1.." + MAX_IDEMPOTENCY_KEY_LENGTH
                    + " characters, got " + (key == null ? "null" : key.length()));
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isISOControl(c) || c > 0x7E) {
                throw new IllegalArgumentException(
                        "Idempotency-Key must be printable ASCII (bad character at index " + i + ")");
            }
        }
        return new Extraction(count, fulfillment, terms, minRemainingTtl, maxHealthAge, key);
    }

    /**
     * Extract exactly {@code count} or nothing.
     *
     * @return a new, all-or-nothing extraction
     */
    public Extraction allOrNothing() {
        return new Extraction(count, Fulfillment.ALL_OR_NOTHING, terms, minRemainingTtl, maxHealthAge, idempotencyKey);
    }

    /**
     * Extract as many as possible up to {@code count} (the default).
     *
     * @return a new, partial extraction
     */
    public Extraction partial() {
        return new Extraction(count, Fulfillment.PARTIAL, terms, minRemainingTtl, maxHealthAge, idempotencyKey);
    }

    /**
     * The validated core request (what a store extracts by; the remote client writes its body
     * from it); bad values throw {@link IllegalArgumentException} naming them.
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
        return new Extraction(count, fulfillment, List.copyOf(next), minRemainingTtl, maxHealthAge, idempotencyKey);
    }

    private static ExtractionFilter filter(List<Consumer<ExtractionFilter.Builder>> terms) {
        ExtractionFilter.Builder b = ExtractionFilter.builder();
        for (Consumer<ExtractionFilter.Builder> t : terms) {
            t.accept(b);
        }
        return b.build();
    }
}
