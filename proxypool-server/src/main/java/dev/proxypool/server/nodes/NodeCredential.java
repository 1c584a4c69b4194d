package dev.proxypool.server.nodes;

import java.time.Instant;

/**
 * The short-lived credential a node receives for its registration token (docs/design.md#security, X11). The registry
 * keeps only a SHA-256 digest of {@code secret}; this is the one time the plain value exists on
 * the control plane. {@link #toString()} never prints it.
 *
 * @param nodeId    the node's id, used in heartbeat paths
 * @param secret    32 random bytes, base64url without padding; sent back as {@code Authorization: Bearer}
 * @param expiresAt when the credential lapses unless a heartbeat renews it (control-plane clock)
 */
public record NodeCredential(String nodeId, String secret, Instant expiresAt) {

    @Override
    public String toString() {
        return "NodeCredential[nodeId=" + nodeId + ", secret=***, expiresAt=" + expiresAt + "]";
    }
}
