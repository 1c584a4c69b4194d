package dev.proxypool.core.health;

import java.util.Locale;

/** Which part of the system observed the fact behind a health transition (a metrics label). */
public enum HealthStage {
    /** The proxy was registered; the first state of every {@link ProxyHealth}. */
    INITIAL,
    /** Outcomes of ordinary requests routed through the proxy. */
    PASSIVE,
    /** The single recovery attempt made by a request after a cooldown. */
    PROBE,
    /** The background prober (periodic checks, or the recovery attempt it took). */
    ACTIVE,
    /** An operator through the admin API. */
    OPERATOR;

    /**
     * The name used as a metrics label and in JSON.
     *
     * @return the lower-case constant name
     */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
