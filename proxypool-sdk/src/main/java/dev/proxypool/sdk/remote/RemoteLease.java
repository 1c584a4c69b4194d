package dev.proxypool.sdk.remote;

import dev.proxypool.core.model.Protocol;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A lease handed out by {@code POST /v1/proxy/acquire}: use {@link #url()} (it carries the proxy's
 * credentials) directly, then {@link DistributionClient#release} it before {@link #expiresAt()}.
 * The proxy stays in the pool; the lease holds one unit of its capacity.
 *
 * @param leaseId    the lease's id, for the release
 * @param state      {@code held}; a replayed answer may say {@code released} or {@code expired}
 * @param proxyId    the proxy's opaque id
 * @param url        {@code scheme://user:pass@host:port}, credentials percent-encoded
 * @param protocol   the proxy's protocol
 * @param host       the proxy's host
 * @param port       the proxy's port
 * @param upstream   the upstream it came from
 * @param routing    the routing that chose it
 * @param labels     its labels
 * @param session    the session, if the request named one
 * @param acquiredAt when it was leased
 * @param expiresAt  when the server releases it if the client has not
 * @param replayed   true when this is the stored answer of an earlier call with the same idempotency key
 */
public record RemoteLease(
        String leaseId,
        String state,
        String proxyId,
        String url,
        Protocol protocol,
        String host,
        int port,
        String upstream,
        String routing,
        Map<String, String> labels,
        Optional<String> session,
        Instant acquiredAt,
        Instant expiresAt,
        boolean replayed) {

    /**
     * Copies the labels.
     *
     * @throws NullPointerException when a required component is null
     */
    public RemoteLease {
        labels = Map.copyOf(labels);
        session = session == null ? Optional.empty() : session;
    }

    /** The lease without its URL (which carries credentials). */
    @Override
    public String toString() {
        return "RemoteLease[" + leaseId + " proxy=" + proxyId + " upstream=" + upstream + " routing=" + routing
                + " expiresAt=" + expiresAt + "]";
    }
}
