package dev.proxypool.core.security;

import java.net.InetAddress;

/**
 * The answer of {@link DestinationPolicy#resolveForDirect}: the already-checked address to dial,
 * or a refusal. Dial exactly {@link Dial#address()}; resolving the name again would reopen the
 * DNS-rebinding hole the check closed.
 */
public sealed interface DirectDestination permits DirectDestination.Dial, DirectDestination.Refused {

    /**
     * Connect to this address (it carries the host name, resolved once, for logs and TLS).
     *
     * @param address the checked address, never null
     */
    record Dial(InetAddress address) implements DirectDestination {}

    /**
     * Do not connect; answer 403 {@code destination_denied} (or 502 for {@link DenyReason#UNRESOLVABLE}).
     *
     * @param reason why the destination is refused
     */
    record Refused(DenyReason reason) implements DirectDestination {}
}
