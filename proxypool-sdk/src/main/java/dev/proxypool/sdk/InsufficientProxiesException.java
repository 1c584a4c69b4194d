package dev.proxypool.sdk;

/** An {@code allOrNothing} extraction could not be met; nothing was extracted. */
public final class InsufficientProxiesException extends ProxyPoolException {

    /** The count asked for. */
    private final int requested;
    /** How many qualified. */
    private final int available;

    /**
     * The failure of one extraction.
     *
     * @param requested the count asked for
     * @param available how many qualified (fewer than {@code requested})
     */
    public InsufficientProxiesException(int requested, int available) {
        super("insufficient proxies: requested " + requested + ", available " + available);
        this.requested = requested;
        this.available = available;
    }

    /**
     * The count asked for.
     *
     * @return the requested count
     */
    public int requested() {
        return requested;
    }

    /**
     * How many proxies qualified when the extraction was refused.
     *
     * @return the available count
     */
    public int available() {
        return available;
    }
}
