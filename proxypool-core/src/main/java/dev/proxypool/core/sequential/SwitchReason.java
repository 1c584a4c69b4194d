package dev.proxypool.core.sequential;

/** Why a sequential routing's position last changed; the config/JSON name is {@link #label()}. */
public enum SwitchReason {
    /** Registered, never moved. */
    INITIAL("initial"),
    /** The current upstream answered Empty {@code emptyThreshold} times in a row. */
    EMPTY_THRESHOLD("empty_threshold"),
    /** An operator advanced it ({@code {"action":"advance"}}). */
    ADMIN_ADVANCE("admin_advance"),
    /** An operator reset it to the first upstream ({@code {"action":"reset"}}). */
    ADMIN_RESET("admin_reset"),
    /** The routing's upstream list or exhaustion changed in config. */
    CONFIG_CHANGE("config_change");

    private final String label;

    SwitchReason(String label) {
        this.label = label;
    }

    /**
     * The JSON and metrics name.
     *
     * @return the lower-case label, such as {@code empty_threshold}
     */
    public String label() {
        return label;
    }

    /**
     * Parses a stored label (persisted state), exactly.
     *
     * @param value a {@link #label()}
     * @return the reason
     * @throws IllegalArgumentException if the value is not a label
     */
    public static SwitchReason parse(String value) {
        for (SwitchReason r : values()) {
            if (r.label.equals(value)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown sequential reason '" + value
                + "' (expected initial, empty_threshold, admin_advance, admin_reset or config_change)");
    }
}
