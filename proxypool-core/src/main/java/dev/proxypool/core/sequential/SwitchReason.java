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

    public String label() {
        return label;
    }

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
