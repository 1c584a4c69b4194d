package dev.proxypool.core.sequential;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The position of every {@code strategy: sequential} routing in its upstream list (docs/design.md#sequential-switching).
 *
 * <p><b>Rule.</b> A routing starts on its first upstream. {@link #record(String, FetchOutcome)}
 * feeds fetch outcomes per upstream: each routing counts the consecutive {@link FetchOutcome.Empty}
 * outcomes of its <em>current</em> upstream, from the moment that upstream became current. When
 * the count reaches the routing's own {@code emptyThreshold} the routing moves exactly one step
 * and the count restarts at 0. {@link FetchOutcome.Success} and {@link FetchOutcome.DuplicateOnly}
 * reset the count; {@link FetchOutcome.Error} neither counts nor resets. Several routings sharing
 * an upstream therefore each apply their own threshold; routings that reached the upstream
 * together with equal thresholds move in the same {@code record} call, atomically (one lock: no
 * reader of {@link #snapshot()} sees one moved and the other not, no routing moves twice for one
 * crossing). At the end of the list: {@link Exhaustion#STOP} stays on the last upstream and sets
 * {@code exhausted} (no further move until {@link #reset(String)}), {@link Exhaustion#LOOP} goes
 * back to the first, {@link Exhaustion#STAY_LAST} stays on the last with its count reset.
 *
 * <p><b>Switching deletes nothing.</b> The position is only an index: it says which upstream is
 * fed (fetched) for the routing. Proxies already fetched from earlier upstreams stay in the pool
 * and keep serving until they drain or expire.
 *
 * <p><b>Concurrency and cost.</b> Fetch outcomes arrive a few times a minute per upstream, so
 * changes take one lock and cost O(routings). Reads ({@link #current(String)},
 * {@link #state(String)}) are lock-free lookups of immutable {@link SequentialState} records.
 * Listener calls happen outside the lock, in change order (see {@link SequentialListener}).
 */
public final class SequentialBoard {

    private static final System.Logger LOG = System.getLogger(SequentialBoard.class.getName());

    private final InstantSource clock;
    private final SequentialListener listener;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, SequentialRouting> routings = new LinkedHashMap<>(); // guarded by lock
    private final ConcurrentHashMap<String, SequentialState> states = new ConcurrentHashMap<>(); // written under lock
    private final ConcurrentLinkedQueue<Change> pending = new ConcurrentLinkedQueue<>();
    private final ReentrantLock delivery = new ReentrantLock();

    private record Change(SequentialState before, SequentialState after, boolean transition) {}

    /**
     * A board with no routings and no listener.
     *
     * @param clock wall clock for {@link SequentialState#changedAt()}; not null
     */
    public SequentialBoard(InstantSource clock) {
        this(clock, SequentialListener.NONE);
    }

    /**
     * A board with no routings.
     *
     * @param clock    wall clock for {@link SequentialState#changedAt()}; not null
     * @param listener hears every change; see {@link SequentialListener} for its contract
     */
    public SequentialBoard(InstantSource clock, SequentialListener listener) {
        if (clock == null || listener == null) {
            throw new IllegalArgumentException("clock and listener are required");
        }
        this.clock = clock;
        this.listener = listener;
    }

    /**
     * Adds a routing on its first upstream, or updates a registered one: with the same upstream
     * list its position is kept; with a changed list it stays on its current upstream if still
     * listed (new index, reason {@code config_change}), else restarts on the first. The
     * {@code exhausted} flag survives only while the routing is still on its last upstream under
     * {@code stop}.
     *
     * @param routing the routing as configured now; not null
     * @return the routing's state after registration
     */
    public SequentialState register(SequentialRouting routing) {
        lock.lock();
        try {
            return registerLocked(routing);
        } finally {
            lock.unlock();
            deliver();
        }
    }

    /**
     * Makes {@code all} the registered set: registers each, drops the routings not listed.
     *
     * @param all every sequential routing of the new config; not null
     */
    public void configure(List<SequentialRouting> all) {
        Set<String> names = new HashSet<>();
        for (SequentialRouting r : all) {
            if (!names.add(r.name())) {
                throw new IllegalArgumentException("routings[" + r.name() + "]: routing names must be unique");
            }
        }
        lock.lock();
        try {
            routings.keySet().removeIf(n -> !names.contains(n));
            states.keySet().removeIf(n -> !names.contains(n));
            for (SequentialRouting r : all) {
                registerLocked(r);
            }
        } finally {
            lock.unlock();
            deliver();
        }
    }

    /**
     * Forgets a routing; returns false when it was not registered.
     *
     * @param routing the routing's name
     * @return true if it was registered
     */
    public boolean unregister(String routing) {
        lock.lock();
        try {
            states.remove(routing);
            return routings.remove(routing) != null;
        } finally {
            lock.unlock();
        }
    }

    private SequentialState registerLocked(SequentialRouting r) {
        SequentialRouting old = routings.put(r.name(), r);
        SequentialState s = states.get(r.name());
        if (old == null || s == null) {
            SequentialState fresh = new SequentialState(
                    r.name(), 0, r.upstreams().getFirst(), false, 0, 0, SwitchReason.INITIAL, clock.instant());
            states.put(r.name(), fresh);
            return fresh;
        }
        int idx = r.upstreams().indexOf(s.upstream());
        int last = r.upstreams().size() - 1;
        boolean exhausted = s.exhausted() && idx == last && r.exhaustion() == Exhaustion.STOP;
        if (idx == s.index() && exhausted == s.exhausted()) {
            return s;
        }
        SequentialState next = idx < 0
                ? s.moved(0, r.upstreams().getFirst(), false, SwitchReason.CONFIG_CHANGE, clock.instant())
                : new SequentialState(
                        r.name(),
                        idx,
                        s.upstream(),
                        exhausted,
                        s.consecutiveEmpty(),
                        s.version() + 1,
                        SwitchReason.CONFIG_CHANGE,
                        clock.instant());
        publish(s, next, true);
        return next;
    }

    /**
     * Feeds one fetch outcome of {@code upstream}. Returns the states of the routings whose
     * position changed because of it (usually none: an empty list).
     *
     * @param upstream the upstream that was fetched
     * @param outcome  what the fetch returned; not null
     * @return the changed states, in registration order; empty when no position moved
     */
    public List<SequentialState> record(String upstream, FetchOutcome outcome) {
        if (upstream == null || outcome == null) {
            throw new IllegalArgumentException("upstream and outcome are required");
        }
        if (outcome instanceof FetchOutcome.Error) {
            return List.of(); // neither counts nor resets
        }
        boolean empty = outcome instanceof FetchOutcome.Empty;
        List<SequentialState> moved = List.of();
        lock.lock();
        try {
            for (SequentialRouting r : routings.values()) {
                SequentialState s = states.get(r.name());
                if (!s.upstream().equals(upstream)) {
                    continue;
                }
                if (!empty) {
                    if (s.consecutiveEmpty() > 0) {
                        publish(s, s.withCount(0), false);
                    }
                } else if (!s.exhausted()) {
                    int count = s.consecutiveEmpty() + 1;
                    if (count < r.emptyThreshold()) {
                        publish(s, s.withCount(count), false);
                    } else {
                        SequentialState next = step(r, s, SwitchReason.EMPTY_THRESHOLD);
                        if (moved.isEmpty()) {
                            moved = new ArrayList<>();
                        }
                        moved.add(next);
                    }
                }
            }
        } finally {
            lock.unlock();
            deliver();
        }
        return moved.isEmpty() ? List.of() : List.copyOf(moved);
    }

    /** One step along the list, applying the exhaustion policy at the end. Under lock. */
    private SequentialState step(SequentialRouting r, SequentialState s, SwitchReason why) {
        int last = r.upstreams().size() - 1;
        SequentialState next;
        if (s.index() < last) {
            next = s.moved(s.index() + 1, r.upstreams().get(s.index() + 1), false, why, clock.instant());
        } else {
            next = switch (r.exhaustion()) {
                case STOP -> s.exhausted() ? s : s.moved(last, s.upstream(), true, why, clock.instant());
                case LOOP -> s.moved(0, r.upstreams().getFirst(), false, why, clock.instant());
                case STAY_LAST -> s.moved(last, s.upstream(), false, why, clock.instant());
            };
        }
        if (next != s) {
            publish(s, next, true);
        }
        return next;
    }

    private void publish(SequentialState before, SequentialState after, boolean transition) {
        states.put(after.routing(), after);
        pending.add(new Change(before, after, transition));
    }

    /**
     * Delivers pending changes in order. Whoever holds {@code delivery} drains the queue; a caller
     * that finds it held leaves its changes to that thread, which re-checks the queue after
     * unlocking, so no change is stranded.
     */
    private void deliver() {
        while (!pending.isEmpty()) {
            if (!delivery.tryLock()) {
                return;
            }
            try {
                Change c;
                while ((c = pending.poll()) != null) {
                    try {
                        listener.onChange(c.before(), c.after(), c.transition());
                    } catch (RuntimeException e) {
                        LOG.log(
                                System.Logger.Level.WARNING,
                                "sequential listener failed for routing "
                                        + c.after().routing(),
                                e);
                    }
                }
            } finally {
                delivery.unlock();
            }
        }
    }

    /**
     * The routing's state: current index and upstream, exhaustion, count. Lock-free.
     *
     * @throws IllegalArgumentException when the routing is not registered as sequential
     * @param routing the routing's name
     * @return the state
     */
    public SequentialState current(String routing) {
        SequentialState s = states.get(routing);
        if (s == null) {
            throw new IllegalArgumentException("routing '" + routing + "' is not a registered sequential routing");
        }
        return s;
    }

    /**
     * Like {@link #current(String)}, empty for an unknown routing (the admin API's 404).
     *
     * @param routing the routing's name
     * @return the state, or empty
     */
    public Optional<SequentialState> state(String routing) {
        return Optional.ofNullable(states.get(routing));
    }

    /**
     * Upstreams that are current for at least one routing: the ones a fetch scheduler should feed.
     *
     * @return an unmodifiable set of upstream names
     */
    public Set<String> currentUpstreams() {
        Set<String> out = new HashSet<>();
        for (SequentialState s : states.values()) {
            out.add(s.upstream());
        }
        return Set.copyOf(out);
    }

    /**
     * Admin {@code {"action":"reset"}}: back to the first upstream, not exhausted, count 0.
     *
     * @param routing the routing's name
     * @return the new state
     * @throws IllegalArgumentException when the routing is not registered
     */
    public SequentialState reset(String routing) {
        lock.lock();
        try {
            SequentialState s = current(routing);
            SequentialRouting r = routings.get(routing);
            SequentialState next =
                    s.moved(0, r.upstreams().getFirst(), false, SwitchReason.ADMIN_RESET, clock.instant());
            publish(s, next, true);
            return next;
        } finally {
            lock.unlock();
            deliver();
        }
    }

    /**
     * Admin {@code {"action":"advance"}}: one step, with the exhaustion policy at the end; an
     * exhausted {@code stop} routing stays as it is (returned unchanged).
     *
     * @param routing the routing's name
     * @return the new state
     * @throws IllegalArgumentException when the routing is not registered
     */
    public SequentialState advance(String routing) {
        lock.lock();
        try {
            SequentialState s = current(routing);
            return step(routings.get(routing), s, SwitchReason.ADMIN_ADVANCE);
        } finally {
            lock.unlock();
            deliver();
        }
    }

    /**
     * The registered routings, in registration order.
     *
     * @return an unmodifiable copy
     */
    public List<SequentialRouting> routings() {
        lock.lock();
        try {
            return List.copyOf(routings.values());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Every routing's state at one instant (a consistent cut), in registration order.
     *
     * @return an unmodifiable list
     */
    public List<SequentialState> snapshot() {
        lock.lock();
        try {
            List<SequentialState> out = new ArrayList<>(routings.size());
            for (String name : routings.keySet()) {
                out.add(states.get(name));
            }
            return List.copyOf(out);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes back persisted states, after {@link #register registering} the routings and before
     * feeding outcomes. A state is applied as stored (index, exhausted, count, version, reason,
     * time) when its routing is registered and its upstream is still listed (found by name if
     * the list changed; {@code exhausted} only kept on the last upstream under {@code stop});
     * other states are skipped. Listeners are not called: nothing changed, it was remembered.
     *
     * @return the states applied
     * @param saved states from {@link #snapshot()}, e.g. persisted; not null
     */
    public List<SequentialState> restore(List<SequentialState> saved) {
        List<SequentialState> applied = new ArrayList<>();
        lock.lock();
        try {
            for (SequentialState s : saved) {
                SequentialRouting r = routings.get(s.routing());
                if (r == null) {
                    continue;
                }
                int idx = r.upstreams().indexOf(s.upstream());
                if (idx < 0) {
                    continue;
                }
                boolean exhausted =
                        s.exhausted() && idx == r.upstreams().size() - 1 && r.exhaustion() == Exhaustion.STOP;
                SequentialState taken = new SequentialState(
                        s.routing(),
                        idx,
                        s.upstream(),
                        exhausted,
                        s.consecutiveEmpty(),
                        s.version(),
                        s.reason(),
                        s.changedAt());
                states.put(s.routing(), taken);
                applied.add(taken);
            }
        } finally {
            lock.unlock();
        }
        return List.copyOf(applied);
    }
}
