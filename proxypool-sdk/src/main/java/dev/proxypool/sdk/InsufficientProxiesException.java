package dev.proxypool.sdk;

/** An {@code allOrNothing} extraction could not be met; nothing was extracted. */
public final class InsufficientProxiesException extends ProxyPoolException {

    private final int requested;
    private final int available;

    public InsufficientProxiesException(int requested, int available) {
        super("insufficient proxies: requested " + requested + ", available " + available);
        this.requested = requested;
        this.available = available;
    }

    public int requested() {
        return requested;
    }

    public int available() {
        return available;
    }
}
