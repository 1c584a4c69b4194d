package dev.proxypool.sdk.provider;

import java.util.Locale;

/**
 * Why a fetch failed. Mirrors {@code dev.proxypool.core.sequential.FetchOutcome.ErrorKind} name for
 * name, so mapping is {@code ErrorKind.valueOf(kind.name())}.
 */
public enum FetchErrorKind {
    /** Connection refused or reset, DNS failure, unreadable file. */
    NETWORK,
    /** Connect/read timeout or the whole-fetch deadline passed. */
    TIMEOUT,
    /** HTTP 401/403, or the token/password env var is not set. */
    AUTH,
    /** Any other non-2xx status, including redirects (not followed: they could leak the token). */
    HTTP_STATUS,
    /** A {@code {placeholder}} in the URL has no param, or the filled URL is invalid. */
    TEMPLATE,
    /** The answer is not the expected format: not JSON, JSON but no list, no header, or no record parses. */
    PARSE,
    /** The answer is larger than {@code maxBytes}; reading stopped at the cap. */
    SIZE_LIMIT;

    /** Metric label: {@code network}, {@code http_status}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
