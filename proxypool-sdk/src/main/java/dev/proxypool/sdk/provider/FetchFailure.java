package dev.proxypool.sdk.provider;

/** A whole-source failure inside an adapter; becomes {@link SourceOutcome.Error}. Carries no stack. */
final class FetchFailure extends Exception {

    private final FetchErrorKind kind;

    FetchFailure(FetchErrorKind kind, String detail) {
        super(detail, null, false, false);
        this.kind = kind;
    }

    FetchErrorKind kind() {
        return kind;
    }
}
