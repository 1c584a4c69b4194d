package dev.proxypool.sdk.validate;

import java.util.Locale;

/** The validator's verdict on one candidate (docs/design.md#collection-pipeline, P6). */
public enum Verdict {
    /** Works; neither the validator's address nor proxy markers reached the echo endpoint. */
    ELITE,
    /** Works; proxy markers such as {@code Via} reached the echo endpoint, the validator's address did not. */
    ANONYMOUS,
    /** Not admitted to the pool; the {@link RejectReason} says why. */
    REJECTED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
