package dev.proxypool.core.sequential;

import java.util.Locale;

/**
 * The outcome of one upstream fetch (docs/design.md#collection-pipeline, P5), kept distinct because only {@link Empty} moves a
 * sequential routing:
 * <ul>
 *   <li>{@link Success}: new valid candidates arrived; resets the consecutive-Empty count.</li>
 *   <li>{@link Empty}: the provider answered and parsing succeeded, yet zero valid candidates;
 *       counts toward {@code emptyThreshold}.</li>
 *   <li>{@link Error}: network, timeout, auth, HTTP status, template, parse or size-limit failure;
 *       never counts as Empty, and does not reset the count either (a flaky provider erroring
 *       between empty answers must not hide that it is dry).</li>
 *   <li>{@link DuplicateOnly}: every candidate was already known; the provider still has stock, so
 *       the count resets.</li>
 * </ul>
 */
public sealed interface FetchOutcome {

    /** The shared {@link Empty} outcome (the record has no state). */
    Empty EMPTY = new Empty();
    /** The shared {@link DuplicateOnly} outcome. */
    DuplicateOnly DUPLICATE_ONLY = new DuplicateOnly();

    /**
     * Low-cardinality metric label: {@code success}, {@code empty}, {@code error}, {@code duplicate_only}.
     *
     * @return the label
     */
    String label();

    /**
     * Classifies a successfully parsed answer.
     *
     * @param newCandidates   valid candidates not seen before
     * @param knownCandidates valid candidates already in the pool (duplicates)
     * @return Success when any candidate is new, else DuplicateOnly when any is known, else Empty
     * @throws IllegalArgumentException if a count is negative
     */
    static FetchOutcome classify(int newCandidates, int knownCandidates) {
        if (newCandidates < 0 || knownCandidates < 0) {
            throw new IllegalArgumentException(
                    "candidate counts must not be negative, got new=" + newCandidates + " known=" + knownCandidates);
        }
        if (newCandidates > 0) {
            return new Success(newCandidates);
        }
        return knownCandidates > 0 ? DUPLICATE_ONLY : EMPTY;
    }

    /**
     * New valid candidates arrived; resets the consecutive-Empty count.
     *
     * @param newCandidates new valid candidates, at least 1 (zero is {@link Empty} or {@link DuplicateOnly})
     */
    record Success(int newCandidates) implements FetchOutcome {
        /**
         * Checks the count.
         *
         * @throws IllegalArgumentException if it is below 1
         */
        public Success {
            if (newCandidates < 1) {
                throw new IllegalArgumentException("Success needs at least one new candidate, got " + newCandidates
                        + " (zero is Empty or DuplicateOnly)");
            }
        }

        @Override
        public String label() {
            return "success";
        }
    }

    /**
     * The provider answered and parsing succeeded, yet zero valid candidates: counts
     * toward {@code emptyThreshold}.
     */
    record Empty() implements FetchOutcome {
        @Override
        public String label() {
            return "empty";
        }
    }

    /**
     * Every candidate was already known: the provider still has stock, so the
     * consecutive-Empty count resets.
     */
    record DuplicateOnly() implements FetchOutcome {
        @Override
        public String label() {
            return "duplicate_only";
        }
    }

    /**
     * The fetch failed; never counts as Empty, nor resets the Empty count. Backed off by
     * {@link FetchBackoff}.
     *
     * @param kind   what failed
     * @param detail a short human explanation, at most 512 characters (longer is cut); callers must
     *               keep secrets (tokens, credentials, full URLs with keys) out of it
     */
    record Error(ErrorKind kind, String detail) implements FetchOutcome {
        /** The longest {@code detail} kept, in characters. */
        public static final int MAX_DETAIL = 512;

        /**
         * Checks the kind and cuts the detail; a null detail becomes empty.
         *
         * @throws IllegalArgumentException if the kind is null
         */
        public Error {
            if (kind == null) {
                throw new IllegalArgumentException("fetch error kind is missing");
            }
            detail = detail == null ? "" : detail.length() > MAX_DETAIL ? detail.substring(0, MAX_DETAIL) : detail;
        }

        @Override
        public String label() {
            return "error";
        }
    }

    /** Why a fetch failed. */
    enum ErrorKind {
        /** The connection to the provider failed (refused, reset, name not resolved). */
        NETWORK,
        /** The provider did not answer within the fetch timeout. */
        TIMEOUT,
        /** The provider refused the credentials. */
        AUTH,
        /** The provider answered with a non-success HTTP status. */
        HTTP_STATUS,
        /** The request template could not be rendered. */
        TEMPLATE,
        /** The answer could not be parsed in the configured format. */
        PARSE,
        /** The answer exceeded a size limit. */
        SIZE_LIMIT;

        /**
         * Metric label: {@code network}, {@code http_status}, ...
         *
         * @return the lower-case constant name
         */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
