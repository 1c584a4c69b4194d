package dev.proxypool.sdk.provider;

/** One record rejected while mapping; control flow only, so no stack trace. */
final class Drop extends Exception {

    private final DropReason reason;

    Drop(DropReason reason) {
        super(reason.code(), null, false, false);
        this.reason = reason;
    }

    DropReason reason() {
        return reason;
    }
}
