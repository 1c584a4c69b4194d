package dev.proxypool.sdk.provider;

import java.util.Locale;
import java.util.Set;

/**
 * The login grammars of the rotating gateways sold today, from each vendor's public documentation:
 * the default templates, how the session lifetime is written, and which placeholders the vendor
 * understands ({@code user}, {@code password} and {@code session} always; {@code lifetime} only
 * where the vendor takes one).
 */
enum SessionPreset {

    /** Bright Data: {@code brd-customer-ID-zone-ZONE-country-us-session-abc123}; no lifetime in the login. */
    BRIGHTDATA(
            "{user}-session-{session}",
            "{password}",
            LifetimeUnit.NONE,
            Set.of("country", "state", "city", "zip", "asn", "carrier", "os")),

    /** Oxylabs: {@code customer-USER-cc-DE-sessid-abc123-sesstime-10}, the lifetime in minutes. */
    OXYLABS(
            "customer-{user}-sessid-{session}-sesstime-{lifetime}",
            "{password}",
            LifetimeUnit.MINUTES,
            Set.of("country", "city", "state", "continent")),

    /** IPRoyal: targeting in the password, {@code PASS_country-de_session-abcd1234_lifetime-30m}. */
    IPROYAL(
            "{user}",
            "{password}_session-{session}_lifetime-{lifetime}",
            LifetimeUnit.SUFFIXED,
            Set.of("country", "state", "city", "region", "isp")),

    /** SOAX: {@code package-123-country-us-sessionid-abc-sessionlength-600}, the lifetime in seconds. */
    SOAX(
            "{user}-sessionid-{session}-sessionlength-{lifetime}",
            "{password}",
            LifetimeUnit.SECONDS,
            Set.of("country", "region", "city", "isp"));

    /** Placeholders every grammar has. */
    static final Set<String> ALWAYS = Set.of("user", "password", "session");

    final String usernameTemplate;
    final String passwordTemplate;
    final LifetimeUnit unit;
    final Set<String> labels;

    SessionPreset(String usernameTemplate, String passwordTemplate, LifetimeUnit unit, Set<String> labels) {
        this.usernameTemplate = usernameTemplate;
        this.passwordTemplate = passwordTemplate;
        this.unit = unit;
        this.labels = labels;
    }

    /** The preset named in config, or null for none. */
    static SessionPreset parse(String key, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    key + ": unknown preset '" + value + "' (known: brightdata, oxylabs, iproyal, soax)", e);
        }
    }

    /** Whether the vendor's grammar has {@code placeholder}. */
    boolean supports(String placeholder) {
        return ALWAYS.contains(placeholder)
                || labels.contains(placeholder)
                || ("lifetime".equals(placeholder) && unit != LifetimeUnit.NONE);
    }

    String code() {
        return name().toLowerCase(Locale.ROOT);
    }
}
