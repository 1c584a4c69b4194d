package dev.proxypool.sdk.probe;

import java.util.Locale;

/** What one active check of one proxy came to (the metrics label). */
public enum ProbeOutcome {
    /** The request went through: reported as an active success. */
    SUCCEEDED,
    /** The proxy failed (confirmed where the target could be at fault): reported as an active failure. */
    FAILED,
    /**
     * A failure that may have been the target's, not reported because the same proxy then worked
     * against another target (counted in addition to that {@link #SUCCEEDED}).
     */
    EXCUSED,
    /**
     * No admission: cooling, disabled, the recovery permit held elsewhere, or every unit of the
     * proxy's capacity in use by traffic. Nothing was sent.
     */
    SKIPPED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
