package dev.proxypool.sdk.validate;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.Anonymity;
import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.util.Optional;

/**
 * The outcome of validating one candidate: {@link Accepted} (elite or anonymous, with the exit
 * address the echo endpoint saw) or {@link Rejected} (with a reason code). Either carries the
 * latency of the whole attempt by the validator's ticker. Messages and {@code toString} name the
 * proxy by id; details never hold a secret or an unmasked proxy address.
 */
public sealed interface ValidationResult permits ValidationResult.Accepted, ValidationResult.Rejected {

    Proxy proxy();

    Verdict verdict();

    /** Accepted: dial + request + full echo reply. Rejected: until the rejection was certain. */
    Duration latency();

    default long latencyMillis() {
        return latency().toMillis();
    }

    /**
     * A working proxy.
     *
     * @param anonymity {@link Anonymity#ELITE} or {@link Anonymity#ANONYMOUS}
     * @param exitIp    the address the echo endpoint saw
     * @param marker    the proxy marker that made it anonymous, empty for elite
     */
    record Accepted(Proxy proxy, Anonymity anonymity, String exitIp, Duration latency, String marker)
            implements ValidationResult {

        public Accepted {
            if (proxy == null || exitIp == null || latency == null || marker == null) {
                throw new IllegalArgumentException(
                        "an accepted result needs a proxy, exit address, latency and marker");
            }
            if (anonymity != Anonymity.ELITE && anonymity != Anonymity.ANONYMOUS) {
                throw new IllegalArgumentException("an accepted proxy is elite or anonymous, got " + anonymity);
            }
        }

        @Override
        public Verdict verdict() {
            return anonymity == Anonymity.ELITE ? Verdict.ELITE : Verdict.ANONYMOUS;
        }

        /** The candidate with its anonymity and exit address recorded (ASN lookup comes later, docs/design.md#collection-pipeline P9). */
        public Proxy validatedProxy() {
            return proxy.toBuilder()
                    .anonymity(anonymity)
                    .exitNetwork(new ExitNetwork(exitIp, 0, "", ""))
                    .build();
        }
    }

    /**
     * A candidate kept out of the pool.
     *
     * @param failureKind the classified failure when the proxy failed at the network level; empty for a
     *                    judgement of a working proxy (a leak, a direct address)
     * @param exitIp      the address the echo endpoint saw, when it answered
     * @param detail      one line for people: the step, the header, the status (no secret, masked address)
     */
    record Rejected(
            Proxy proxy,
            RejectReason reason,
            Optional<FailureKind> failureKind,
            Optional<String> exitIp,
            Duration latency,
            String detail)
            implements ValidationResult {

        public Rejected {
            if (proxy == null
                    || reason == null
                    || failureKind == null
                    || exitIp == null
                    || latency == null
                    || detail == null) {
                throw new IllegalArgumentException("a rejected result needs every field (Optional.empty() for none)");
            }
        }

        @Override
        public Verdict verdict() {
            return Verdict.REJECTED;
        }
    }
}
