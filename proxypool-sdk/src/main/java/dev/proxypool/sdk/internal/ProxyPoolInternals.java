package dev.proxypool.sdk.internal;

import dev.proxypool.core.capacity.Reservation;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.sticky.SessionKey;
import dev.proxypool.core.sticky.StickyDispatch;
import dev.proxypool.core.sticky.StickyPick;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.dial.UpstreamDialer;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.pipeline.CollectionPipeline;
import java.util.Optional;

/**
 * What the server and the CLI need of a {@link ProxyPool} beyond its public surface: its engine,
 * dialer and collection pipeline, and a way for the engine to create {@link Lease}s. The public
 * types register their side once, from their static initialisers; this package is not exported.
 */
public final class ProxyPoolInternals {

    /** The {@link ProxyPool} side, registered by {@code ProxyPool}'s static initialiser. */
    public interface PoolAccess {
        /**
         * The pool's engine.
         *
         * @param pool the pool
         * @return its engine
         */
        PoolEngine engine(ProxyPool pool);

        /**
         * The pool's dialer.
         *
         * @param pool the pool
         * @return its dialer
         */
        UpstreamDialer dialer(ProxyPool pool);

        /**
         * The pool's collection pipeline.
         *
         * @param pool the pool
         * @return its pipeline, if it has one
         */
        Optional<CollectionPipeline> pipeline(ProxyPool pool);
    }

    /** The {@link Lease} side, registered by {@code Lease}'s static initialiser. */
    public interface LeaseFactory {
        /**
         * A new lease; see {@link ProxyPoolInternals#newLease}.
         *
         * @param proxy       the leased proxy
         * @param routing     the routing's name
         * @param reservation the capacity held, RESERVED: the lease takes its unit over (it ends without giving it back)
         * @param admission   the health admission
         * @param health      the proxy's health
         * @param ticker      the monotonic clock
         * @param attempt     1 for a first attempt
         * @param sticky      the routing's sticky dispatch
         * @param session     the sticky session key
         * @param stickyPick  the sticky pick, or null
         * @param snapshot    the snapshot the proxy was picked from
         * @return the lease
         */
        Lease create(
                Proxy proxy,
                String routing,
                Reservation reservation,
                Admission admission,
                ProxyHealth health,
                Ticker ticker,
                int attempt,
                StickyDispatch sticky,
                SessionKey session,
                StickyPick stickyPick,
                PoolSnapshot snapshot);
    }

    private static volatile PoolAccess poolAccess;
    private static volatile LeaseFactory leaseFactory;

    private ProxyPoolInternals() {}

    /**
     * Registers the pool side; only {@code ProxyPool} calls this, once.
     *
     * @param access the accessor
     * @throws IllegalStateException when already registered
     */
    public static synchronized void register(PoolAccess access) {
        if (poolAccess != null) {
            throw new IllegalStateException("ProxyPool access is already registered");
        }
        poolAccess = access;
    }

    /**
     * Registers the lease side; only {@code Lease} calls this, once.
     *
     * @param factory the factory
     * @throws IllegalStateException when already registered
     */
    public static synchronized void register(LeaseFactory factory) {
        if (leaseFactory != null) {
            throw new IllegalStateException("Lease factory is already registered");
        }
        leaseFactory = factory;
    }

    /**
     * The engine behind {@code pool}, for adapters (gateway, admin API, metrics).
     *
     * @param pool the pool
     * @return its engine
     */
    public static PoolEngine engine(ProxyPool pool) {
        return poolAccess.engine(pool); // an instance exists, so ProxyPool's initialiser has run
    }

    /**
     * The dialer behind {@code pool}, with its credential store.
     *
     * @param pool the pool
     * @return its dialer
     */
    public static UpstreamDialer dialer(ProxyPool pool) {
        return poolAccess.dialer(pool);
    }

    /**
     * The collection pipeline behind {@code pool} (present even while no upstream is configured).
     *
     * @param pool the pool
     * @return its pipeline
     */
    public static Optional<CollectionPipeline> pipeline(ProxyPool pool) {
        return poolAccess.pipeline(pool);
    }

    /**
     * A new lease of {@code proxy}'s capacity, for the engine.
     *
     * @param proxy       the leased proxy
     * @param routing     the routing's name
     * @param reservation the capacity held, RESERVED: the lease takes its unit over (it ends without giving it back)
     * @param admission   the health admission
     * @param health      the proxy's health
     * @param ticker      the monotonic clock
     * @param attempt     1 for a first attempt
     * @param sticky      the routing's sticky dispatch
     * @param session     the sticky session key
     * @param stickyPick  the sticky pick, or null
     * @param snapshot    the snapshot the proxy was picked from
     * @return the lease
     */
    public static Lease newLease(
            Proxy proxy,
            String routing,
            Reservation reservation,
            Admission admission,
            ProxyHealth health,
            Ticker ticker,
            int attempt,
            StickyDispatch sticky,
            SessionKey session,
            StickyPick stickyPick,
            PoolSnapshot snapshot) {
        LeaseFactory f = leaseFactory;
        if (f == null) {
            initialise(Lease.class);
            f = leaseFactory;
        }
        return f.create(
                proxy, routing, reservation, admission, health, ticker, attempt, sticky, session, stickyPick, snapshot);
    }

    private static void initialise(Class<?> type) {
        try {
            Class.forName(type.getName(), true, type.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(type.getName() + " cannot be loaded", e);
        }
    }
}
