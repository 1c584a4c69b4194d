package dev.proxypool.testkit;

import java.io.IOException;

/** Thrown to unwind a connection handler once a fault has cut the connection. */
final class InjectedFault extends IOException {

    enum Kind {
        RESET,
        HALF_CLOSED
    }

    private final Kind kind;

    InjectedFault(Kind kind) {
        super("injected fault: " + kind);
        this.kind = kind;
    }

    Kind kind() {
        return kind;
    }
}
