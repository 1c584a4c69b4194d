package dev.proxypool.core.health;

/**
 * Who holds the single recovery-probe permit of a proxy in {@link HealthState#PROBE_ALLOWED}. Only
 * the holder's report resolves the probe: a late request result cannot settle a permit the
 * background prober took, nor the other way round.
 */
public enum ProbeHolder {
    /** No permit is held (every state but {@code PROBE_ALLOWED}). */
    NONE,
    /** A request admitted with {@link Admission#PROBE} by {@link ProxyHealth#tryAdmit(long)}. */
    REQUEST,
    /** The background prober, through {@link ProxyHealth#tryAdmitActiveProbe(long)}. */
    PROBER
}
