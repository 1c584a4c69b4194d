package dev.proxypool.core.dispatch;

import dev.proxypool.core.capacity.CapacityCell;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.PoolSnapshot;

/**
 * The per-candidate checks every strategy shares, in cost order: remaining TTL, health age,
 * exclusion, domain ban, then capacity is reserved FIRST and health admission asked only after,
 * so a full proxy never consumes the single recovery probe permit; a denied admission cancels the
 * reservation. Plus the bounded fallback scan and the failure diagnosis.
 *
 * <p>Allocation: none. A taken candidate is one {@code int} ({@link #taken}: the slot and whether
 * the admission is a probe) holding one raw unit of the slot's {@link CapacityCell}; the
 * {@link Dispatcher} turns it into a result (a new {@link Picked}, or a caller-owned
 * {@link ReusablePick}). Disabled proxies are skipped before reserving so they do not cost a
 * throw-away reservation on every pick.
 */
final class CandidateGate {

    /** No candidate taken. */
    static final int NONE = -1;

    private CandidateGate() {}

    /** A taken candidate: {@code slot} with its unit acquired, admitted as a probe or normally. */
    static int taken(int slot, boolean probe) {
        return slot << 1 | (probe ? 1 : 0);
    }

    /** The slot of a {@link #taken} value. */
    static int slotOf(int taken) {
        return taken >>> 1;
    }

    /** The admission of a {@link #taken} value: {@link Admission#PROBE} or {@link Admission#ADMITTED}. */
    static Admission admissionOf(int taken) {
        return (taken & 1) != 0 ? Admission.PROBE : Admission.ADMITTED;
    }

    /**
     * Takes one unit of candidate {@code index}'s capacity if it is usable now, else returns
     * {@link #NONE}. The caller owns the unit of a returned {@link #taken} value. Reads the candidate's
     * inputs from the set's own arrays (see {@link CandidateSet}: locality).
     */
    static int tryTakeAt(PoolSnapshot s, CandidateSet set, int index, PickRequest r, long now) {
        return tryTake(
                s, set, set.slotAt(index), set.deadlineAt(index), set.healthAt(index), set.capacityAt(index), r, now);
    }

    /**
     * {@link #tryTakeAt} for a slot known by its snapshot slot (a sticky session's proxy), reading the
     * snapshot's arrays.
     */
    static int tryTake(PoolSnapshot s, CandidateSet set, int slot, PickRequest r, long now) {
        return tryTake(s, set, slot, s.deadlineNanos(slot), s.health(slot), s.capacity(slot), r, now);
    }

    private static int tryTake(
            PoolSnapshot s,
            CandidateSet set,
            int slot,
            long deadline,
            ProxyHealth health,
            CapacityCell cell,
            PickRequest r,
            long now) {
        if (deadline != PoolSnapshot.NO_DEADLINE && deadline - now < set.minRemainingTtlNanos()) {
            return NONE;
        }
        long maxAge = set.maxHealthAgeNanos();
        if (maxAge > 0 && now - health.lastCheckedNanos() > maxAge) {
            return NONE;
        }
        if (!r.excludedProxyIds().isEmpty() && r.excludes(s.proxy(slot).id())) {
            return NONE;
        }
        if (r.hasDomain() && health.isBannedFor(r.domain(), now)) {
            return NONE;
        }
        if (health.state() == HealthState.DISABLED) {
            return NONE;
        }
        if (!cell.tryAcquire()) {
            return NONE;
        }
        Admission admission = health.tryAdmit(now);
        if (admission == Admission.DENIED) {
            cell.releaseAcquired();
            return NONE;
        }
        return taken(slot, admission == Admission.PROBE);
    }

    /**
     * Tries every candidate index in {@code [from, to)} once, starting at {@code start} and
     * wrapping: deterministic, and a pick fails only if no candidate of the range is usable.
     */
    static int scan(PoolSnapshot s, CandidateSet set, int from, int to, int start, PickRequest r, long now) {
        int len = to - from;
        int offset = start - from;
        for (int k = 0; k < len; k++) {
            int i = offset + k;
            if (i >= len) {
                i -= len;
            }
            int t = tryTakeAt(s, set, from + i, r, now);
            if (t != NONE) {
                return t;
            }
        }
        return NONE;
    }

    /**
     * Why the candidates of {@code [from, to)} were not usable: re-examines them without side
     * effects. Runs only after a failed pick (the failure path), so its O(n) cost is not on the
     * success path. The verdict may lag reality by a moment; it is a diagnosis, not a decision.
     */
    static NoCandidate diagnose(PoolSnapshot s, CandidateSet set, int from, int to, PickRequest r, long now) {
        if (from >= to) {
            return NoCandidate.of(NoCandidate.Reason.NO_MATCH);
        }
        int seen = 0;
        for (int i = from; i < to; i++) {
            seen |= 1 << reasonOf(s, set, set.slotAt(i), r, now).ordinal();
        }
        for (NoCandidate.Reason reason : PRIORITY) {
            if ((seen & (1 << reason.ordinal())) != 0) {
                return NoCandidate.of(reason);
            }
        }
        return NoCandidate.of(NoCandidate.Reason.UNHEALTHY);
    }

    private static final NoCandidate.Reason[] PRIORITY = {
        NoCandidate.Reason.BUSY, NoCandidate.Reason.UNHEALTHY, NoCandidate.Reason.BANNED,
        NoCandidate.Reason.STALE_HEALTH, NoCandidate.Reason.EXPIRING, NoCandidate.Reason.EXCLUDED,
    };

    /** The first check candidate {@code slot} fails now (BUSY or UNHEALTHY when only capacity or admission remain). */
    static NoCandidate.Reason reasonOf(PoolSnapshot s, CandidateSet set, int slot, PickRequest r, long now) {
        long deadline = s.deadlineNanos(slot);
        if (deadline != PoolSnapshot.NO_DEADLINE && deadline - now < set.minRemainingTtlNanos()) {
            return NoCandidate.Reason.EXPIRING;
        }
        ProxyHealth health = s.health(slot);
        long maxAge = set.maxHealthAgeNanos();
        if (maxAge > 0 && now - health.lastCheckedNanos() > maxAge) {
            return NoCandidate.Reason.STALE_HEALTH;
        }
        if (r.excludes(s.proxy(slot).id())) {
            return NoCandidate.Reason.EXCLUDED;
        }
        if (r.hasDomain() && health.isBannedFor(r.domain(), now)) {
            return NoCandidate.Reason.BANNED;
        }
        HealthState state = health.state();
        if (state == HealthState.DISABLED || state == HealthState.COOLING) {
            return NoCandidate.Reason.UNHEALTHY;
        }
        if (s.capacity(slot).available() == 0 || state == HealthState.HEALTHY) {
            return NoCandidate.Reason.BUSY; // full now, or was full a moment ago when the pick tried it
        }
        return NoCandidate.Reason.UNHEALTHY; // PROBE_ALLOWED whose single permit is taken
    }
}
