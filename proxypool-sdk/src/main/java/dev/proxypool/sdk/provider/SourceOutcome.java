package dev.proxypool.sdk.provider;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.util.Set;

/**
 * How one upstream fetch went (SPEC §2 "Fetch outcome"), kept distinct:
 * <ul>
 *   <li>{@link Success}: at least one valid candidate;</li>
 *   <li>{@link Empty}: the provider answered and parsing succeeded, but zero valid candidates;</li>
 *   <li>{@link Error}: network, timeout, auth, HTTP status, template, parse or size-limit failure,
 *       never reported as Empty;</li>
 *   <li>{@link DuplicateOnly}: every candidate was already known; only {@link #classify} decides
 *       this, against the pool, because an adapter does not know the pool.</li>
 * </ul>
 * Mapping to the core's {@code FetchOutcome}: {@code Success(n)} after {@link #classify} →
 * {@code Success(n)}, {@code Empty} → {@code EMPTY}, {@code DuplicateOnly} → {@code DUPLICATE_ONLY},
 * {@code Error(kind, detail)} → {@code Error(ErrorKind.valueOf(kind.name()), detail)}.
 */
public sealed interface SourceOutcome {

    Empty EMPTY = new Empty();
    DuplicateOnly DUPLICATE_ONLY = new DuplicateOnly();

    /** Low-cardinality metric label: {@code success}, {@code empty}, {@code duplicate_only}, {@code error}. */
    String label();

    /**
     * The outcome of {@code report} against the keys already in the pool: errors stay errors;
     * otherwise {@code Success(new)} when some candidates are new, {@code DuplicateOnly} when all
     * were known, {@code Empty} when there were none.
     */
    static SourceOutcome classify(FetchReport report, Set<ProxyKey> known) {
        if (report.outcome() instanceof Error) {
            return report.outcome();
        }
        int fresh = 0;
        for (Proxy p : report.candidates()) {
            if (!known.contains(p.key())) {
                fresh++;
            }
        }
        if (fresh > 0) {
            return new Success(fresh);
        }
        return report.candidates().isEmpty() ? EMPTY : DUPLICATE_ONLY;
    }

    /** @param candidates valid candidates (new ones, after {@link #classify}), at least 1 */
    record Success(int candidates) implements SourceOutcome {
        public Success {
            if (candidates < 1) {
                throw new IllegalArgumentException("Success needs at least one candidate, got " + candidates);
            }
        }

        @Override
        public String label() {
            return "success";
        }
    }

    record Empty() implements SourceOutcome {
        @Override
        public String label() {
            return "empty";
        }
    }

    record DuplicateOnly() implements SourceOutcome {
        @Override
        public String label() {
            return "duplicate_only";
        }
    }

    /**
     * @param kind   what failed
     * @param detail short explanation, without secrets, URLs or record contents (at most 300 chars)
     */
    record Error(FetchErrorKind kind, String detail) implements SourceOutcome {
        public Error {
            if (kind == null) {
                throw new IllegalArgumentException("fetch error kind is missing");
            }
            detail = detail == null ? "" : detail.length() > 300 ? detail.substring(0, 300) : detail;
        }

        @Override
        public String label() {
            return "error";
        }
    }
}
