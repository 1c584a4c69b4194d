package dev.proxypool.core.rank;

import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.core.model.Proxy;

/**
 * One validated proxy offered to the ranker.
 *
 * @param proxyId       the proxy's opaque id
 * @param latencyMs     full validation latency in milliseconds, finite and {@code >= 0}
 * @param successStreak consecutive successful validation cycles, {@code >= 0}
 * @param exitNetwork   observed exit network: {@code asn == 0} is unknown; {@code exitIp} an IPv4
 *                      or IPv6 literal, or empty when unknown (then no subnet grouping)
 */
public record RankCandidate(String proxyId, double latencyMs, int successStreak, ExitNetwork exitNetwork) {

    /**
     * Validates the figures; a null exit network becomes {@link ExitNetwork#UNKNOWN}.
     *
     * @throws IllegalArgumentException naming the proxy id and the first invalid figure, or an exit
     *     address that is not an IP literal
     */
    public RankCandidate {
        if (proxyId == null || proxyId.isBlank()) {
            throw new IllegalArgumentException("candidate proxy id is missing");
        }
        if (!Double.isFinite(latencyMs) || latencyMs < 0) {
            throw new IllegalArgumentException(
                    "candidate " + proxyId + ": latencyMs must be a finite number >= 0, got " + latencyMs);
        }
        if (successStreak < 0) {
            throw new IllegalArgumentException(
                    "candidate " + proxyId + ": successStreak must not be negative, got " + successStreak);
        }
        exitNetwork = exitNetwork == null ? ExitNetwork.UNKNOWN : exitNetwork;
        try {
            Subnets.of(exitNetwork.exitIp());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("candidate " + proxyId + ": " + e.getMessage(), e);
        }
    }

    /**
     * A candidate from a validated proxy, with its exit network.
     *
     * @param proxy         the validated proxy; not null
     * @param latencyMs     full validation latency in milliseconds, finite and {@code >= 0}
     * @param successStreak consecutive successful validation cycles, {@code >= 0}
     * @return the candidate
     */
    public static RankCandidate of(Proxy proxy, double latencyMs, int successStreak) {
        return new RankCandidate(proxy.id(), latencyMs, successStreak, proxy.exitNetwork());
    }

    /**
     * The base score of docs/design.md#collection-pipeline (P10): {@code 1000 / (1 + latency_ms) + 2 × min(success_streak, 10)}.
     *
     * @return a score in (0, 1020]; higher is better
     */
    public double baseScore() {
        return 1000.0 / (1.0 + latencyMs) + 2.0 * Math.min(successStreak, 10);
    }
}
