package dev.proxypool.core.health;

/** The answer of {@link ProxyHealth#tryAdmit(long)}: may this proxy carry one more request now? */
public enum Admission {
    /** Healthy: a normal request. */
    ADMITTED,
    /** The single recovery attempt after a cooldown; its outcome decides the proxy's state. */
    PROBE,
    /** Cooling, disabled, or the probe permit is already taken. */
    DENIED;

    /**
     * Whether the caller may send the request.
     *
     * @return true for ADMITTED and PROBE
     */
    public boolean admitted() {
        return this != DENIED;
    }
}
