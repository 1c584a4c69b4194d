package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ProxyFixtures;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The labelled pool of the Redis store's shortfall tests: proxy n ({@link ProxyFixtures#builder}) of
 * country n % 4 of {@link #COUNTRIES}, residential when n / 4 is even, else datacenter, so each
 * country × type combination is an eighth of the pool.
 */
final class FourCountries {

    static final String[] COUNTRIES = {"US", "DE", "FR", "JP"};
    /** One country × type combination: an eighth of the pool. */
    static final ExtractionFilter US_RESIDENTIAL = ExtractionFilter.builder()
            .country("US")
            .label("type", "residential")
            .build();
    /** One country: a quarter of the pool. */
    static final ExtractionFilter DE = ExtractionFilter.builder().country("DE").build();
    /** No filter. */
    static final ExtractionFilter NONE = ExtractionFilter.builder().build();

    private FourCountries() {}

    /** Proxy n, expiring at {@code expiresAt} ({@code null}: never). */
    static Proxy proxy(int n, Instant expiresAt) {
        var b = ProxyFixtures.builder(n)
                .labels(Labels.of(
                        "country", COUNTRIES[n % 4], "type", (n / 4) % 2 == 0 ? "residential" : "datacenter"));
        if (expiresAt != null) {
            b.expiresAt(expiresAt);
        }
        return b.build();
    }

    /** Proxies {@code from..to-1}, proxy n expiring 1 h + n s after {@code now}. */
    static List<Proxy> proxies(int from, int to, Instant now) {
        List<Proxy> out = new ArrayList<>();
        for (int n = from; n < to; n++) {
            out.add(proxy(n, now.plus(Duration.ofHours(1)).plusSeconds(n)));
        }
        return out;
    }
}
