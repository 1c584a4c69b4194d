package dev.proxypool.sdk.provider;

import dev.proxypool.core.sequential.FetchOutcome;

/** A whole-source failure inside an adapter; becomes {@link FetchOutcome.Error}. Carries no stack. */
final class FetchFailure extends Exception {

    private final FetchOutcome.ErrorKind kind;

    FetchFailure(FetchOutcome.ErrorKind kind, String detail) {
        super(detail, null, false, false);
        this.kind = kind;
    }

    FetchOutcome.ErrorKind kind() {
        return kind;
    }
}
