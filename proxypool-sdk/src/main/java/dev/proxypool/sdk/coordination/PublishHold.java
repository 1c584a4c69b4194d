package dev.proxypool.sdk.coordination;

import java.util.Set;

/**
 * Proxies a control plane keeps out of the snapshots it publishes for now, though its own pool
 * holds them: a node that registered and has not passed a check yet (docs/design.md H10b). Workers
 * build every proxy they learn as healthy at once, so the only way to keep an unchecked proxy from
 * their clients is not to tell them about it.
 */
@FunctionalInterface
public interface PublishHold {

    /** Holds nothing back. */
    PublishHold NONE = Set::of;

    /**
     * The ids of the proxies to leave out of the next publication. Asked at every check of the
     * engine's snapshot ({@code checkEvery}), so it must be cheap; a set that differs from the one
     * of the last publication publishes again at once, so a proxy released from the hold reaches
     * the workers within one check.
     *
     * @return the ids held back now, never null
     */
    Set<String> heldIds();
}
