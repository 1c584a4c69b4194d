package dev.proxypool.server.nodes;

import java.time.Instant;
import java.util.List;

/**
 * Where {@link NodeRegistry} keeps registration tokens and registered nodes so that they survive a
 * control-plane restart: {@link PostgresNodeStore} when the server has a configuration database,
 * {@link #NONE} otherwise (the registry's memory only; after a restart tokens are issued again and
 * nodes register again). Only digests of tokens and credentials are stored.
 *
 * <p>The registry writes through before it answers (a registration the store could not keep fails);
 * heartbeats are written best-effort (liveness is the registry's memory; a lost heartbeat write
 * costs at most a shorter credential after a restart).
 */
public interface NodeStore extends AutoCloseable {

    /** Keeps nothing: registrations live as long as the process. */
    NodeStore NONE = new NodeStore() {
        @Override
        public List<TokenRow> tokens() {
            return List.of();
        }

        @Override
        public List<NodeRow> nodes() {
            return List.of();
        }

        @Override
        public void saveToken(TokenRow token) {}

        @Override
        public void deleteToken(String name) {}

        @Override
        public void saveNode(NodeRow node, String replaces) {}

        @Override
        public void deleteNode(String nodeId) {}

        @Override
        public void heartbeat(String nodeId, Instant lastHeartbeat, Instant credentialExpiresAt) {}

        @Override
        public boolean persistent() {
            return false;
        }
    };

    /**
     * A stored registration token.
     *
     * @param name   its name
     * @param digest base64 of the SHA-256 of the token
     */
    record TokenRow(String name, String digest) {}

    /**
     * A stored node.
     *
     * @param nodeId              its id
     * @param tokenName           the token it registered with
     * @param advert              what it advertised (as updated since)
     * @param secretDigest        SHA-256 of its credential
     * @param registeredAt        when it registered
     * @param lastHeartbeat       its last accepted heartbeat
     * @param credentialExpiresAt when its credential lapses
     */
    record NodeRow(
            String nodeId,
            String tokenName,
            NodeAdvert advert,
            byte[] secretDigest,
            Instant registeredAt,
            Instant lastHeartbeat,
            Instant credentialExpiresAt) {}

    /** Every stored token. */
    List<TokenRow> tokens();

    /** Every stored node. */
    List<NodeRow> nodes();

    void saveToken(TokenRow token);

    /** Deletes the token and every node registered with it. */
    void deleteToken(String name);

    /**
     * Inserts or replaces {@code node}; deletes node {@code replaces} (an agent's re-registration)
     * in the same transaction when not null.
     */
    void saveNode(NodeRow node, String replaces);

    void deleteNode(String nodeId);

    /** Records an accepted heartbeat; never moves either instant backwards. */
    void heartbeat(String nodeId, Instant lastHeartbeat, Instant credentialExpiresAt);

    /** Whether registrations survive a restart. */
    default boolean persistent() {
        return true;
    }

    @Override
    default void close() {}
}
