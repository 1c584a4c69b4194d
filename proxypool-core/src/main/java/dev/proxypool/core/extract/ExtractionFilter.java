package dev.proxypool.core.extract;

import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which proxies an extraction (or an admin listing) may take: equality on protocol, upstream and
 * labels — nothing else, so every term maps to one index set and a store answers it by set
 * intersection (in Redis: one set per upstream, per protocol and per label value).
 *
 * <p>The named filters of the API are labels of the same name: {@code country}, {@code region},
 * {@code city}, {@code carrier}. {@code carrier} matches the {@code carrier} label only, never
 * {@code isp}: provider adapters normalize a vendor's {@code isp} field to {@code carrier}, so one
 * term stays one index set (a caller can still filter on {@code labels: {isp: ...}} explicitly).
 * Values match exactly, case-sensitively, as {@link LabelSelector} does.
 *
 * @param protocol the required protocol; empty = any
 * @param upstream the required upstream name; empty = any
 * @param labels   required labels, including country/region/city/carrier
 */
public record ExtractionFilter(Optional<Protocol> protocol, Optional<String> upstream, LabelSelector labels) {

    /** The label behind the {@code country} filter (ISO 3166-1 alpha-2 by convention, e.g. {@code US}). */
    public static final String COUNTRY = "country";
    /** The label behind the {@code region} filter. */
    public static final String REGION = "region";
    /** The label behind the {@code city} filter. */
    public static final String CITY = "city";
    /** The label behind the {@code carrier} filter; vendors' {@code isp} is normalized to it. */
    public static final String CARRIER = "carrier";

    /** Matches every proxy. */
    public static final ExtractionFilter ANY =
            new ExtractionFilter(Optional.empty(), Optional.empty(), LabelSelector.ANY);

    /**
     * Checks the terms and trims the upstream.
     *
     * @throws IllegalArgumentException if a term is null or the upstream is blank
     */
    public ExtractionFilter {
        if (protocol == null || upstream == null || labels == null) {
            throw new IllegalArgumentException(
                    "filter terms must not be null (use Optional.empty() / LabelSelector.ANY)");
        }
        if (upstream.isPresent() && upstream.get().isBlank()) {
            throw new IllegalArgumentException("filter.upstream must not be blank");
        }
        upstream = upstream.map(String::trim);
    }

    /**
     * Whether {@code proxy} satisfies every term.
     *
     * @param proxy a stored proxy; not null
     * @return true if protocol, upstream and labels all match
     */
    public boolean matches(Proxy proxy) {
        if (protocol.isPresent() && protocol.get() != proxy.protocol()) {
            return false;
        }
        if (upstream.isPresent() && !upstream.get().equals(proxy.upstream())) {
            return false;
        }
        return labels.matches(proxy.labels());
    }

    /**
     * Whether the filter has no term, so a store may pick from the set of all available ids.
     *
     * @return true if it matches every proxy
     */
    public boolean isAny() {
        return protocol.isEmpty() && upstream.isEmpty() && labels.isEmpty();
    }

    /**
     * A builder with no term.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a filter; a named filter and a label of the same key must agree. */
    public static final class Builder {
        private Protocol protocol;
        private String upstream;
        private final TreeMap<String, String> labels = new TreeMap<>();

        private Builder() {}

        /**
         * Requires a protocol.
         *
         * @param protocol the protocol; null removes the term
         * @return this builder
         */
        public Builder protocol(Protocol protocol) {
            this.protocol = protocol;
            return this;
        }

        /**
         * Requires an upstream.
         *
         * @param upstream the upstream name, trimmed
         * @return this builder
         * @throws IllegalArgumentException if it is null or blank
         */
        public Builder upstream(String upstream) {
            if (upstream == null || upstream.isBlank()) {
                throw new IllegalArgumentException("filter.upstream must not be blank");
            }
            this.upstream = upstream.trim();
            return this;
        }

        /**
         * Requires the {@value #COUNTRY} label, as {@link #label(String, String)} does.
         *
         * @param value the exact value, trimmed
         * @return this builder
         * @throws IllegalArgumentException if blank or in conflict with an earlier value for the label
         */
        public Builder country(String value) {
            return label(COUNTRY, value);
        }

        /**
         * Requires the {@value #REGION} label, as {@link #label(String, String)} does.
         *
         * @param value the exact value, trimmed
         * @return this builder
         * @throws IllegalArgumentException if blank or in conflict with an earlier value for the label
         */
        public Builder region(String value) {
            return label(REGION, value);
        }

        /**
         * Requires the {@value #CITY} label, as {@link #label(String, String)} does.
         *
         * @param value the exact value, trimmed
         * @return this builder
         * @throws IllegalArgumentException if blank or in conflict with an earlier value for the label
         */
        public Builder city(String value) {
            return label(CITY, value);
        }

        /**
         * Requires the {@value #CARRIER} label, as {@link #label(String, String)} does.
         *
         * @param value the exact value, trimmed
         * @return this builder
         * @throws IllegalArgumentException if blank or in conflict with an earlier value for the label
         */
        public Builder carrier(String value) {
            return label(CARRIER, value);
        }

        /**
         * Requires every label of the map, as {@link #label(String, String)} does.
         *
         * @param required key to exact value; not null
         * @return this builder
         * @throws IllegalArgumentException on a blank key or value, or a conflict with an earlier value
         */
        public Builder labels(Map<String, String> required) {
            required.forEach(this::label);
            return this;
        }

        /**
         * Requires label {@code key} to equal {@code value}.
         *
         * @param key   the label key, trimmed
         * @param value the exact value, trimmed
         * @return this builder
         * @throws IllegalArgumentException if either is blank, or the key was required with another value
         */
        public Builder label(String key, String value) {
            if (key == null || key.isBlank()) {
                throw new IllegalArgumentException("filter.labels has an empty key");
            }
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("filter." + key.trim() + " must not be blank");
            }
            String k = key.trim();
            String v = value.trim();
            String before = labels.putIfAbsent(k, v);
            if (before != null && !before.equals(v)) {
                throw new IllegalArgumentException(
                        "filter." + k + " is given twice with different values: '" + before + "' and '" + v + "'");
            }
            return this;
        }

        /**
         * Builds the filter.
         *
         * @return the filter; {@link #isAny()} when no term was given
         */
        public ExtractionFilter build() {
            return new ExtractionFilter(
                    Optional.ofNullable(protocol), Optional.ofNullable(upstream), LabelSelector.of(labels));
        }
    }
}
