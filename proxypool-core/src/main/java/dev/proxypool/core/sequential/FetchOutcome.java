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

    Empty EMPTY = new Empty();
    DuplicateOnly DUPLICATE_ONLY = new DuplicateOnly();

    /** Low-cardinality metric label: {@code success}, {@code empty}, {@code error}, {@code duplicate_only}. */
    String label();

    /**
     * Classifies a successfully parsed answer.
     *
     * @param newCandidates   valid candidates not seen before
     * @param knownCandidates valid candidates already in the pool (duplicates)
     */
    static FetchOutcome classify(int newCandidates, int knownCandidates) {
        if (newCandidates < 0 || knownCandidates < 0) {
            throw new IllegalArgumentException("candidate counts must not be negative, got new=" + newCandidates
                    + " known=" + knownCandidates);
        }
        if (newCandidates > 0) {
            return new Success(newCandidates);
        }
        return knownCandidates > 0 ? DUPLICATE_ONLY : EMPTY;
    }

    /** @param newCandidates new valid candidates, at least 1 (zero is {@link Empty} or {@link DuplicateOnly}) */
    record Success(int newCandidates) implements FetchOutcome {
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

    record Empty() implements FetchOutcome {
        @Override
        public String label() {
            return "empty";
        }
    }

    record DuplicateOnly() implements FetchOutcome {
        @Override
        public String label() {
            return "duplicate_only";
        }
    }

    /**
     * @param kind   what failed
     * @param detail a short human explanation, at most 512 characters (longer is cut); callers must
     *               keep secrets (tokens, credentials, full URLs with keys) out of it
     */
    record Error(ErrorKind kind, String detail) implements FetchOutcome {
        public static final int MAX_DETAIL = 512;

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
        NETWORK, TIMEOUT, AUTH, HTTP_STATUS, TEMPLATE, PARSE, SIZE_LIMIT;

        /** Metric label: {@code network}, {@code http_status}, ... */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
