package dev.proxypool.core.health;

import java.util.Locale;

/**
 * Why a health transition happened. {@link #code()} is low-cardinality (safe as a metrics label);
 * an operator's free text stays in {@link Operator#text()}.
 */
public sealed interface HealthReason {

    /**
     * A stable, low-cardinality name: a {@link FailureKind#wireName()}, {@code operator}, or a lifecycle event.
     *
     * @return lower-case, no spaces; never an operator's free text
     */
    String code();

    /** Which rule turned failures into a transition. */
    enum Trigger {
        /** {@code health.passive.consecutiveFailures} failures in a row. */
        CONSECUTIVE_FAILURES,
        /** The passive window's error rate exceeded {@code health.passive.errorRate} over enough samples. */
        ERROR_RATE,
        /** A failure that does not heal by waiting (revoked credentials): disables at once. */
        LASTING_CONDITION,
        /** The recovery probe failed: the cooldown doubles. */
        PROBE_FAILED,
        /** {@code health.active.failuresToCool} active probes failed in a row. */
        ACTIVE_PROBES_FAILED,
        /**
         * {@code health.passive.distinctTargetFailures} different destinations failed target-side
         * through the proxy in a row: the proxy itself cannot reach anything.
         */
        DISTINCT_TARGETS_FAILED
    }

    /**
     * A classified proxy failure and the rule it tripped.
     *
     * @param kind    the classified failure that tripped the rule
     * @param trigger the rule it tripped
     */
    record Failure(FailureKind kind, Trigger trigger) implements HealthReason {
        /**
         * Checks both parts are present.
         *
         * @throws IllegalArgumentException if either is null
         */
        public Failure {
            if (kind == null || trigger == null) {
                throw new IllegalArgumentException(
                        "failure reason needs a kind and a trigger, got " + kind + "/" + trigger);
            }
        }

        @Override
        public String code() {
            return kind.wireName();
        }
    }

    /**
     * An operator's decision, with the operator's words (free text, never a metrics label).
     *
     * @param text the operator's words, non-blank
     */
    record Operator(String text) implements HealthReason {
        /**
         * Checks the operator gave a reason.
         *
         * @throws IllegalArgumentException if the text is null or blank
         */
        public Operator {
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException("operator reason must not be blank, got '" + text + "'");
            }
        }

        @Override
        public String code() {
            return "operator";
        }
    }

    /**
     * An operator's enable (reason code {@code operator_enabled}), with the operator's words: a
     * transition of its own, so the record says who returned the proxy and when.
     *
     * @param text the operator's words, non-blank
     */
    record OperatorEnabled(String text) implements HealthReason {
        /**
         * Checks the operator gave a reason.
         *
         * @throws IllegalArgumentException if the text is null or blank
         */
        public OperatorEnabled {
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException("operator reason must not be blank, got '" + text + "'");
            }
        }

        @Override
        public String code() {
            return "operator_enabled";
        }
    }

    /** Transitions driven by time and probes rather than by a failure. */
    enum Lifecycle implements HealthReason {
        /** The proxy was registered. */
        CREATED,
        /** The cooldown deadline passed and one caller took the probe permit. */
        COOLDOWN_ELAPSED,
        /** The recovery probe succeeded. */
        PROBE_SUCCEEDED,
        /** The recovery probe never reported within {@code probeTimeout}: counted as a failed probe. */
        PROBE_EXPIRED,
        /**
         * The credentials of a proxy disabled for a credential rejection were reloaded: the
         * condition that disabled it may be gone, so it gets one recovery check.
         */
        CREDENTIALS_RELOADED,
        /** An operator asked for a re-check of a cooling proxy or one disabled for a failure. */
        RECHECK_REQUESTED;

        @Override
        public String code() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
