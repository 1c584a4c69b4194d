package dev.proxypool.sdk.probe;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * The totals of one probing round.
 *
 * @param proxies     proxies in the snapshot
 * @param deadTargets targets tried this round that never answered while another target did: their
 *                    failures were excused; operators should look at them
 * @param elapsed     by the prober's ticker
 */
public record ProbeRound(
        int proxies, int succeeded, int failed, int excused, int skipped, List<URI> deadTargets, Duration elapsed) {

    public ProbeRound {
        deadTargets = List.copyOf(deadTargets);
    }
}
