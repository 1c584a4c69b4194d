package dev.proxypool.core.health;

/** The lifecycle of a proxy's health (docs/design.md#health-states-and-transitions). */
public enum HealthState {
    /** Available for normal work under the current policy. */
    HEALTHY,
    /** Temporarily held until a recorded deadline. */
    COOLING,
    /**
     * The deadline passed: exactly one controlled attempt may test recovery. Entered when the first
     * caller after the deadline takes the probe permit (deadlines are checked lazily, so a COOLING
     * proxy whose deadline passed still reads COOLING until someone asks to use it).
     */
    PROBE_ALLOWED,
    /** An operator, or a lasting condition such as revoked credentials, took it out. */
    DISABLED
}
