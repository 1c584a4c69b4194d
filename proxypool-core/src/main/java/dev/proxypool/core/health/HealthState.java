package dev.proxypool.core.health;

/** The lifecycle of a proxy's health (SPEC §6). */
public enum HealthState {
    /** Available for normal work under the current policy. */
    HEALTHY,
    /** Temporarily held until a recorded deadline. */
    COOLING,
    /** The deadline passed: exactly one controlled attempt may test recovery. */
    PROBE_ALLOWED,
    /** An operator, or a lasting condition such as revoked credentials, took it out. */
    DISABLED
}
