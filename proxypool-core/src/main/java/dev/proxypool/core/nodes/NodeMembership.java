package dev.proxypool.core.nodes;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The pool membership rules of self-hosted proxy nodes, judged only on the control plane's clock
 * (nothing a node claims about time is consulted):
 * <ul>
 *   <li>a node is alive while {@code now - lastHeartbeat <= livenessTimeout} ({@link Standing#alive});</li>
 *   <li>a heartbeat is accepted only from a live node whose credential has not lapsed
 *       ({@link Standing#acceptsHeartbeat}); it renews both ({@link Standing#renewed});</li>
 *   <li>an address held by a live node of another token cannot be claimed; the same token claiming
 *       it again supersedes its old node (an agent restart); an address held by a dead node is free
 *       ({@link #claim});</li>
 *   <li>the pool holds exactly the live nodes' proxies: stored ones without a live node leave, live
 *       ones missing from the store come back ({@link #reconcile}).</li>
 * </ul>
 */
public final class NodeMembership {

    private NodeMembership() {}

    /**
     * A node's liveness and credential expiry, both on the control plane's clock.
     *
     * @param lastHeartbeat       when the control plane last accepted a registration or heartbeat
     * @param credentialExpiresAt when the node's credential lapses unless renewed
     */
    public record Standing(Instant lastHeartbeat, Instant credentialExpiresAt) {

        /**
         * Checks both instants are present.
         *
         * @throws NullPointerException if either is null
         */
        public Standing {
            Objects.requireNonNull(lastHeartbeat, "lastHeartbeat");
            Objects.requireNonNull(credentialExpiresAt, "credentialExpiresAt");
        }

        /**
         * A registration or an accepted heartbeat at {@code now}.
         *
         * @param now      the control plane's wall-clock time
         * @param settings the node timing
         * @return a standing alive from {@code now}, credential valid for {@code credentialTtl}
         */
        public static Standing renewed(Instant now, NodeSettings settings) {
            return new Standing(now, now.plus(settings.credentialTtl()));
        }

        /**
         * Whether the node still belongs in the pool.
         *
         * @param now      the control plane's wall-clock time
         * @param settings the node timing
         * @return true while {@code now <= lastHeartbeat + livenessTimeout}
         */
        public boolean alive(Instant now, NodeSettings settings) {
            return !now.isAfter(lastHeartbeat.plus(settings.livenessTimeout()));
        }

        /**
         * False for a dead node or a lapsed credential: the node must register again.
         *
         * @param now      the control plane's wall-clock time
         * @param settings the node timing
         * @return true for a live node whose credential has not lapsed
         */
        public boolean acceptsHeartbeat(Instant now, NodeSettings settings) {
            return alive(now, settings) && now.isBefore(credentialExpiresAt);
        }
    }

    /** What a registration may do with an address. */
    public enum Claim {
        /** No node holds the address. */
        NEW,
        /** A node of the same token, or a dead node, holds it: the new registration replaces it. */
        SUPERSEDE,
        /** A live node of another token holds it: refused. */
        CONFLICT
    }

    /**
     * Decides what a registration of {@code token} may do with an address already held, or not.
     *
     * @param token       the token name of the registering node; not null
     * @param holderToken the token name of the node holding the address, null when none does
     * @param holder      that node's standing, null when none does
     * @param now         the control plane's wall-clock time
     * @param settings    the node timing
     * @return NEW, SUPERSEDE or CONFLICT
     */
    public static Claim claim(String token, String holderToken, Standing holder, Instant now, NodeSettings settings) {
        Objects.requireNonNull(token, "token");
        if (holderToken == null || holder == null) {
            return Claim.NEW;
        }
        return !holderToken.equals(token) && holder.alive(now, settings) ? Claim.CONFLICT : Claim.SUPERSEDE;
    }

    /**
     * The changes that make the stored node proxies equal to the live set.
     *
     * @param remove proxy ids to remove from the store, in order
     * @param add    proxy ids of live nodes to put back
     */
    public record Reconciliation(List<String> remove, List<String> add) {
        /** Copies both lists (unmodifiable). */
        public Reconciliation {
            remove = List.copyOf(remove);
            add = List.copyOf(add);
        }

        /**
         * Whether the store already matches the live set.
         *
         * @return true if there is nothing to remove or add
         */
        public boolean isEmpty() {
            return remove.isEmpty() && add.isEmpty();
        }
    }

    /**
     * Computes the changes that make the stored node proxies exactly the live nodes' proxies.
     *
     * @param dead   proxy ids of nodes just found dead (removed first, in this order)
     * @param live   proxy ids of live nodes
     * @param stored proxy ids the store holds for nodes
     * @return the dead and stored-but-not-live ids to remove, the live-but-not-stored ids to add
     */
    public static Reconciliation reconcile(Collection<String> dead, Set<String> live, Set<String> stored) {
        Set<String> remove = new LinkedHashSet<>(dead);
        for (String id : stored) {
            if (!live.contains(id)) {
                remove.add(id);
            }
        }
        List<String> add = new ArrayList<>();
        for (String id : live) {
            if (!stored.contains(id)) {
                add.add(id);
            }
        }
        return new Reconciliation(new ArrayList<>(remove), add);
    }
}
