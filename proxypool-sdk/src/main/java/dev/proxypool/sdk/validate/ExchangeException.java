package dev.proxypool.sdk.validate;

import dev.proxypool.core.health.FailureKind;

/**
 * A {@link ProxiedExchange} failed: classified as a {@link FailureKind}, with the
 * {@link ExchangeStep} it reached and whether its overall deadline ended it. The message names the
 * proxy by id and masked address, never a secret; no cause is attached (JDK messages may hold full
 * addresses).
 */
public final class ExchangeException extends Exception {

    private final FailureKind kind;
    private final ExchangeStep step;
    private final boolean deadlineExceeded;

    public ExchangeException(FailureKind kind, ExchangeStep step, boolean deadlineExceeded, String message) {
        super(message);
        if (kind == null || step == null) {
            throw new IllegalArgumentException("an exchange failure needs a kind and a step");
        }
        this.kind = kind;
        this.step = step;
        this.deadlineExceeded = deadlineExceeded;
    }

    public FailureKind kind() {
        return kind;
    }

    public ExchangeStep step() {
        return step;
    }

    /** True when the exchange's hard deadline (not a socket timeout) ended it. */
    public boolean deadlineExceeded() {
        return deadlineExceeded;
    }

    /** False when it failed before anything was sent (missing credentials). */
    public boolean proxyContacted() {
        return step != ExchangeStep.CREDENTIALS;
    }
}
