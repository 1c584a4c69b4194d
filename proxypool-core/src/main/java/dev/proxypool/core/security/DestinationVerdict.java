package dev.proxypool.core.security;

/** The answer of {@link DestinationPolicy#check}: go ahead, or 403 {@code destination_denied} with a reason. */
public sealed interface DestinationVerdict permits DestinationVerdict.Allowed, DestinationVerdict.Denied {

    /** The one {@link Allowed} instance. */
    Allowed ALLOWED = new Allowed();

    /** The gateway may forward to this destination. */
    record Allowed() implements DestinationVerdict {}

    /**
     * The gateway must refuse; {@code reason.code()} is the detail for the client and the metric tag.
     *
     * @param reason the first rule that refused the destination
     */
    record Denied(DenyReason reason) implements DestinationVerdict {}

    /**
     * Whether the gateway may go ahead.
     *
     * @return true for {@link Allowed}
     */
    default boolean allowed() {
        return this instanceof Allowed;
    }
}
