package dev.proxypool.core.health;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The live health of one proxy on this worker (docs/design.md#health). Long-lived (survives snapshot swaps),
 * thread-safe, and used on the hot path without locks or allocation.
 *
 * <pre>
 *            passive rule / failed active probes          cooldown over: ONE caller gets PROBE
 *   HEALTHY ------------------------------------&gt; COOLING ------------------------------&gt; PROBE_ALLOWED
 *      ^                                            ^   probe failed or expired: backoff x2    |
 *      |                                            `-----------------------------------------'|
 *      `------------------- probe succeeded (window reset, slow start) ------------------------'
 *   any --auth rejected / operator disable--&gt; DISABLED --operator enable--&gt; HEALTHY (slow start)
 *                                                        `-operator enable after failures, or the
 *                                                          credentials of an auth rejection reloaded--&gt;
 *                                                          COOLING, deadline now (one recovery probe)
 * </pre>
 *
 * <p><b>State.</b> One immutable {@link HealthStatus} in one volatile field (compare-and-set through a
 * {@link VarHandle}, so the hot path reads it without the extra hop of an {@code AtomicReference}); every
 * transition builds the next status and publishes it by compare-and-set, so a deadline, a backoff
 * and a probe permit always change together, and exactly one of racing callers wins a transition
 * (the winner tells the {@link HealthListener}). Nothing runs on a timer: deadlines are checked by
 * the next call that passes the ticker reading, so a cooling proxy costs nothing while it waits.
 *
 * <p><b>Passive rules</b> (request outcomes while HEALTHY): {@code consecutiveFailures} failures in a row,
 * or an error rate above {@code errorRate} over at least {@code minSamples} requests in the sliding
 * {@code window}, cool the proxy for {@code cooldownInitial}. {@link FailureEffect} says which
 * failures count; a credential rejection disables at once. A target-side failure (the proxy worked,
 * the destination did not) counts toward neither rule: only {@code distinctTargetFailures} different
 * destinations failing in a row, with no success between, cool the proxy.
 *
 * <p><b>Recovery without a herd.</b> After the deadline, the first {@link #tryAdmit(long)} (or
 * {@link #tryAdmitActiveProbe(long)}) wins the single probe permit; everyone else is DENIED until the
 * holder reports. Success → HEALTHY with a clean window and a slow start; failure → COOLING again
 * with the backoff doubled up to {@code cooldownMax}. A permit unanswered for {@code probeTimeout}
 * counts as a failed probe, noticed by the next call. Because reports carry no permit token, a
 * report arriving after its permit expired and a new one was granted to the same kind of holder
 * settles the new one; expiry bounds that window to rare, slow stragglers.
 *
 * <p><b>Active probing</b> keeps its own streak: {@code failuresToCool} failed active checks in a
 * row cool a HEALTHY proxy; passive and active counts never mix.
 *
 * <p><b>Cost.</b> {@link #tryAdmit}, {@link #effectiveWeight}, {@link #isBannedFor},
 * {@link #recordSuccess} and {@link #recordFailure} are O(1) (the error-rate check reads
 * {@value PassiveWindow#BUCKETS} buckets) and allocate nothing in steady state; only a transition
 * allocates its new status.
 */
public final class ProxyHealth {

    private static final System.Logger LOG = System.getLogger(ProxyHealth.class.getName());

    private final HealthPolicy policy;
    private final HealthListener listener;
    private final long cooldownInitialNanos;
    private final long cooldownMaxNanos;
    private final long probeTimeoutNanos;
    private final long slowStartNanos;

    private static final VarHandle STATUS;

    static {
        try {
            STATUS = MethodHandles.lookup().findVarHandle(ProxyHealth.class, "status", HealthStatus.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Written only by {@link #transition} (CAS through {@link #STATUS}) and the constructor. */
    private volatile HealthStatus status;

    private final PassiveWindow window;
    private final DomainBans bans;
    private final DynamicWeight weight;
    private final TransitionHistory history = new TransitionHistory();
    private final AtomicInteger passiveStreak = new AtomicInteger();
    private final AtomicInteger activeStreak = new AtomicInteger();
    private final TargetStreak targetStreak;
    private final AtomicLong lastCheckedNanos;

    /**
     * A HEALTHY proxy that tells no one about its transitions.
     *
     * @param policy   the thresholds; not null; its durations are read once, here
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading: the start of the
     *                 first HEALTHY period
     */
    public ProxyHealth(HealthPolicy policy, long nowNanos) {
        this(policy, nowNanos, HealthListener.none());
    }

    /**
     * A HEALTHY proxy that reports its transitions.
     *
     * @param policy   the thresholds; not null; its durations are read once, here
     * @param nowNanos the current ticker reading: the start of the first HEALTHY period
     * @param listener told about every transition (metrics, audit); see {@link HealthListener} for its contract
     * @throws IllegalArgumentException if the policy or the listener is null
     */
    public ProxyHealth(HealthPolicy policy, long nowNanos, HealthListener listener) {
        this(policy, nowNanos, listener, UpstreamBaseline.standalone());
    }

    /**
     * A HEALTHY proxy that reports its transitions and whose dynamic weight is judged against the
     * other proxies of its upstream (docs/design.md#slow-start, H12).
     *
     * @param policy   the thresholds; not null; its durations are read once, here
     * @param nowNanos the current ticker reading: the start of the first HEALTHY period
     * @param listener told about every transition (metrics, audit); see {@link HealthListener} for its contract
     * @param baseline the sums of the proxy's upstream, shared with its peers; not null
     * @throws IllegalArgumentException if the policy, the listener or the baseline is null
     */
    public ProxyHealth(HealthPolicy policy, long nowNanos, HealthListener listener, UpstreamBaseline baseline) {
        if (policy == null || listener == null || baseline == null) {
            throw new IllegalArgumentException("health needs a policy, a listener and a baseline, got " + policy + "/"
                    + listener + "/" + baseline);
        }
        this.weight = new DynamicWeight(baseline);
        this.policy = policy;
        this.listener = listener;
        this.cooldownInitialNanos = policy.cooldownInitial().toNanos();
        this.cooldownMaxNanos = policy.cooldownMax().toNanos();
        this.probeTimeoutNanos = policy.probeTimeout().toNanos();
        this.slowStartNanos = policy.slowStart().toNanos();
        this.window = new PassiveWindow(policy.window().toNanos());
        this.bans = new DomainBans(policy.domainBanDuration().toNanos(), policy.maxBansPerProxy());
        this.targetStreak = new TargetStreak(policy.distinctTargetFailures());
        HealthStatus initial = HealthStatus.initial(nowNanos);
        this.status = initial;
        this.history.add(initial);
        this.lastCheckedNanos = new AtomicLong(nowNanos);
    }

    /**
     * The thresholds this proxy is judged by.
     *
     * @return the policy given at construction
     */
    public HealthPolicy policy() {
        return policy;
    }

    /**
     * The current state, without its reason or deadlines. For display: to route, ask
     * {@link #tryAdmit(long)}, which also notices an elapsed cooldown.
     *
     * @return the state as of the last transition
     */
    public HealthState state() {
        return status.state();
    }

    /**
     * The current status: state with its reason, stage, deadlines and probe permit.
     *
     * @return an immutable status; a later transition publishes a new one
     */
    public HealthStatus status() {
        return status;
    }

    /**
     * The most recent statuses, oldest first (at most 32), the initial one included while it fits.
     *
     * @return an unmodifiable copy
     */
    public List<HealthStatus> history() {
        return history.snapshot();
    }

    // ---- admission ------------------------------------------------------------------------------

    /**
     * May this proxy carry one more request now? Hot path. {@link Admission#PROBE} is returned to
     * exactly one caller per cooldown; that caller must report its outcome with that admission
     * (or the probe expires after {@code probeTimeout} and counts as failed). Callers should ask
     * this rather than pre-filter on {@link #state()}: a cooling proxy returns to service only
     * through a probe granted here or by {@link #tryAdmitActiveProbe(long)}.
     *
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     * @return ADMITTED, PROBE (this caller holds the recovery permit) or DENIED
     */
    public Admission tryAdmit(long nowNanos) {
        return admit(ProbeHolder.REQUEST, HealthStage.PROBE, nowNanos);
    }

    /**
     * The background prober's admission: {@link Admission#ADMITTED} for a routine check of a healthy
     * proxy, {@link Admission#PROBE} when it won the recovery permit, {@link Admission#DENIED} when
     * there is nothing to check now (cooling, disabled, permit held elsewhere). Report with
     * {@link #recordActiveSuccess} / {@link #recordActiveFailure}.
     *
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     * @return ADMITTED, PROBE or DENIED, as above
     */
    public Admission tryAdmitActiveProbe(long nowNanos) {
        return admit(ProbeHolder.PROBER, HealthStage.ACTIVE, nowNanos);
    }

    /**
     * Holds a proxy nobody has checked yet (a node that just registered) out of service until its
     * first check reports (docs/design.md H10b): {@code HEALTHY → PROBE_ALLOWED} with the permit held by
     * the background checker, so every request is denied (H7) until the checker reports with
     * {@link #recordActiveSuccess} / {@link #recordActiveFailure} and {@link Admission#PROBE}. A
     * check that never reports counts as failed after {@code probeTimeout}, like any probe.
     *
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     * @return true when this call took the proxy out; false when it was not HEALTHY (already judged)
     */
    public boolean awaitFirstCheck(long nowNanos) {
        for (; ; ) {
            HealthStatus s = status;
            if (s.state() != HealthState.HEALTHY) {
                return false;
            }
            if (transition(s, s.toAwaitingFirstCheck(nowNanos, nowNanos + probeTimeoutNanos))) {
                return true;
            }
        }
    }

    private Admission admit(ProbeHolder who, HealthStage stage, long nowNanos) {
        for (; ; ) {
            HealthStatus s = status;
            Admission answer = switch (s.state()) {
                case HEALTHY -> Admission.ADMITTED;
                case DISABLED -> Admission.DENIED;
                case COOLING -> {
                    if (nowNanos - s.cooldownUntilNanos() < 0) {
                        yield Admission.DENIED;
                    }
                    boolean won = transition(s, s.toProbeAllowed(who, stage, nowNanos, nowNanos + probeTimeoutNanos));
                    yield won ? Admission.PROBE : null; // lost the race: re-read, the winner holds the permit
                }
                case PROBE_ALLOWED -> {
                    if (nowNanos - s.probeDeadlineNanos() < 0) {
                        yield Admission.DENIED;
                    }
                    expireProbe(s);
                    yield null; // re-read: the next cooldown may already be over too
                }
            };
            if (answer != null) {
                return answer;
            }
        }
    }

    // ---- weight and bans ------------------------------------------------------------------------

    /**
     * Selection weight now: {@code baseWeight} × the dynamic factor (in [0.1, 1]) × the slow-start
     * ramp (10% → 100% linearly over {@code slowStart} after a return to service), rounded, at least 1.
     *
     * @param baseWeight the proxy's configured weight, at least 1
     * @param nowNanos   the current ticker reading
     * @return the weight to select by, in [1, baseWeight]
     * @throws IllegalArgumentException if {@code baseWeight} is below 1
     */
    public int effectiveWeight(int baseWeight, long nowNanos) {
        if (baseWeight < 1) {
            throw new IllegalArgumentException("baseWeight must be at least 1, got " + baseWeight);
        }
        double w = baseWeight * weight.factor();
        long permille = slowStartPermille(nowNanos);
        if (permille < 1000) {
            w = w * permille / 1000.0;
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round(w)));
    }

    /**
     * The share of its base weight this proxy should carry now, in [0.01, 1]: the dynamic factor ×
     * the slow-start ramp, unrounded. Selection thins a proxy's turns by it, so slow start and the
     * dynamic factor also act on proxies of weight 1 (whose {@link #effectiveWeight} rounds to 1). Hot path.
     *
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     * @return the share, in [0.01, 1]
     */
    public double weightShare(long nowNanos) {
        return weight.factor() * slowStartPermille(nowNanos) / 1000.0;
    }

    /** The slow-start ramp now in permille: 100 → 1000 linearly over {@code slowStart} after a return to service. */
    private long slowStartPermille(long nowNanos) {
        HealthStatus s = status;
        if (!s.slowStart() || s.state() != HealthState.HEALTHY) {
            return 1000;
        }
        long elapsed = nowNanos - s.sinceNanos();
        if (elapsed >= slowStartNanos) {
            return 1000;
        }
        return elapsed <= 0 ? 100 : 100 + (long) (900.0 * elapsed / slowStartNanos);
    }

    /**
     * The dynamic weight factor now, in [0.1, 1] (1 = no penalty).
     *
     * @return the factor, lowered by failing or answering more slowly than the upstream's other
     *     proxies, raised again as the proxy catches up with them
     */
    public double weightFactor() {
        return weight.factor();
    }

    /**
     * Where the dynamic factor is heading: the factor the proxy's numbers against its peers' call
     * for now; {@link #weightFactor()} moves toward it by at most 10% per outcome.
     *
     * @return the target, in [0.1, 1]
     */
    public double weightTarget() {
        return weight.target();
    }

    /**
     * EWMA of this proxy's outcomes: 1 = every recent request succeeded.
     *
     * @return in [0, 1]
     */
    public double successEwma() {
        return weight.successEwma();
    }

    /**
     * Mean smoothed latency of the other healthy proxies of the upstream: the reference
     * {@link #latencyEwmaNanos()} is compared with.
     *
     * @return nanoseconds, 0 while no peer has a sample
     */
    public long peerLatencyNanos() {
        return weight.peerLatencyNanos();
    }

    /**
     * Mean smoothed success of the other healthy proxies of the upstream: the reference
     * {@link #successEwma()} is compared with.
     *
     * @return in [0, 1], or -1 while the upstream has no other healthy proxy
     */
    public double peerSuccess() {
        return weight.peerSuccess();
    }

    /**
     * The sums of the proxy's upstream its dynamic weight is judged against.
     *
     * @return the baseline given at construction (a standalone one when none was)
     */
    public UpstreamBaseline baseline() {
        return weight.baseline();
    }

    /**
     * The proxy left this worker's pool: its numbers leave its upstream's baseline for good, so its
     * peers are no longer compared with it. Idempotent; the proxy's own state is untouched.
     */
    public void retire() {
        weight.retire();
    }

    /**
     * True while the proxy is banned for {@code domain} (a destination signal, not a proxy fault). Hot path.
     *
     * @param domain   the destination host, any case
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     * @return true while an unexpired ban for the domain exists
     */
    public boolean isBannedFor(String domain, long nowNanos) {
        return bans.isBanned(domain, nowNanos);
    }

    /**
     * Excludes this proxy for {@code domain} (case-insensitive) for {@code domainBanDuration}; a repeated
     * ban extends it. Never changes the proxy's state. Bounded to {@code maxBansPerProxy}.
     *
     * @param domain   the destination host, any case
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     */
    public void banDomain(String domain, long nowNanos) {
        bans.ban(domain, nowNanos);
    }

    /**
     * The domain bans in force at {@code nowNanos}: domain → nanoseconds left, sorted by domain (a copy, for operators).
     *
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     * @return a sorted copy; empty when none
     */
    public Map<String, Long> bannedDomains(long nowNanos) {
        return bans.active(nowNanos);
    }

    /**
     * Bans remembered now (expired ones are dropped lazily, so this may count a few).
     *
     * @return at most {@code maxBansPerProxy}
     */
    public int bannedDomainCount() {
        return bans.size();
    }

    /**
     * EWMA of success latencies in nanoseconds; 0 while unknown.
     *
     * @return nanoseconds, 0 while no success was measured
     */
    public long latencyEwmaNanos() {
        return weight.latencyNanos();
    }

    /**
     * Ticker reading of the last success (request or probe): the age of this health verdict.
     *
     * @return a ticker reading; the construction time until the first success
     */
    public long lastCheckedNanos() {
        return lastCheckedNanos.get();
    }

    // ---- passive outcomes -----------------------------------------------------------------------

    /**
     * A request admitted with {@code how} succeeded. Hot path.
     *
     * @param latencyNanos time to the proxy's answer; 0 when not measured
     * @param how          the admission the request ran under ({@link Admission#PROBE} settles the probe)
     * @param nowNanos     the current ticker reading
     */
    public void recordSuccess(Admission how, long latencyNanos, long nowNanos) {
        onSuccess(how, latencyNanos, nowNanos);
        HealthStatus s = settleExpiredProbe(nowNanos);
        if (how == Admission.PROBE) {
            resolveProbe(ProbeHolder.REQUEST, HealthStage.PROBE, null, nowNanos);
        } else if (s.state() == HealthState.HEALTHY) {
            window.record(false, nowNanos);
            if (passiveStreak.get() != 0) {
                passiveStreak.set(0);
            }
            targetStreak.reset();
        }
    }

    /**
     * A request admitted with {@code how} failed; the destination is not known. Hot path.
     *
     * @param how      the admission the request ran under ({@link Admission#PROBE} settles the probe)
     * @param kind     what went wrong; its {@link FailureEffect} decides what it counts toward
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     */
    public void recordFailure(Admission how, FailureKind kind, long nowNanos) {
        recordFailure(how, kind, null, nowNanos);
    }

    /**
     * A request admitted with {@code how} to {@code destination} failed. Hot path. A
     * {@link FailureEffect#TARGET_SIDE} kind is judged per destination: see {@link FailureEffect}.
     *
     * @param destination the target host asked for, or {@code null} when unknown (then every
     *                    target-side failure counts as a different destination)
     * @param how         the admission the request ran under ({@link Admission#PROBE} settles the probe)
     * @param kind        what went wrong; its {@link FailureEffect} decides what it counts toward
     * @param nowNanos    the current ticker reading
     */
    public void recordFailure(Admission how, FailureKind kind, String destination, long nowNanos) {
        FailureEffect effect = onFailure(how, kind);
        HealthStatus s = settleExpiredProbe(nowNanos);
        if (effect == FailureEffect.DISABLES) {
            disableFor(
                    new HealthReason.Failure(kind, HealthReason.Trigger.LASTING_CONDITION),
                    how == Admission.PROBE ? HealthStage.PROBE : HealthStage.PASSIVE,
                    nowNanos);
        } else if (how == Admission.PROBE) {
            resolveProbe(ProbeHolder.REQUEST, HealthStage.PROBE, kind, nowNanos);
        } else if (s.state() == HealthState.HEALTHY && effect == FailureEffect.TARGET_SIDE) {
            if (targetStreak.add(destination) >= policy.distinctTargetFailures()) {
                cool(
                        new HealthReason.Failure(kind, HealthReason.Trigger.DISTINCT_TARGETS_FAILED),
                        HealthStage.PASSIVE,
                        nowNanos);
            }
        } else if (s.state() == HealthState.HEALTHY) {
            window.record(true, nowNanos);
            if (effect == FailureEffect.COOLS && passiveStreak.incrementAndGet() >= policy.consecutiveFailures()) {
                cool(
                        new HealthReason.Failure(kind, HealthReason.Trigger.CONSECUTIVE_FAILURES),
                        HealthStage.PASSIVE,
                        nowNanos);
            } else if (window.errorRateExceeded(nowNanos, policy.minSamples(), policy.errorRate())) {
                cool(new HealthReason.Failure(kind, HealthReason.Trigger.ERROR_RATE), HealthStage.PASSIVE, nowNanos);
            }
        }
    }

    // ---- active outcomes ------------------------------------------------------------------------

    /**
     * An active check admitted by {@link #tryAdmitActiveProbe(long)} succeeded.
     *
     * @param how          the admission {@link #tryAdmitActiveProbe(long)} granted
     * @param latencyNanos time to the check's answer; 0 when not measured
     * @param nowNanos     the current ticker reading
     */
    public void recordActiveSuccess(Admission how, long latencyNanos, long nowNanos) {
        onSuccess(how, latencyNanos, nowNanos);
        HealthStatus s = settleExpiredProbe(nowNanos);
        if (how == Admission.PROBE) {
            resolveProbe(ProbeHolder.PROBER, HealthStage.ACTIVE, null, nowNanos);
        } else if (s.state() == HealthState.HEALTHY) {
            activeStreak.set(0);
        }
    }

    /**
     * An active check admitted by {@link #tryAdmitActiveProbe(long)} failed.
     *
     * @param how      the admission {@link #tryAdmitActiveProbe(long)} granted
     * @param kind     what went wrong; its {@link FailureEffect} decides what it counts toward
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     */
    public void recordActiveFailure(Admission how, FailureKind kind, long nowNanos) {
        FailureEffect effect = onFailure(how, kind);
        HealthStatus s = settleExpiredProbe(nowNanos);
        if (effect == FailureEffect.DISABLES) {
            disableFor(
                    new HealthReason.Failure(kind, HealthReason.Trigger.LASTING_CONDITION),
                    HealthStage.ACTIVE,
                    nowNanos);
        } else if (how == Admission.PROBE) {
            resolveProbe(ProbeHolder.PROBER, HealthStage.ACTIVE, kind, nowNanos);
        } else if (s.state() == HealthState.HEALTHY && activeStreak.incrementAndGet() >= policy.failuresToCool()) {
            cool(
                    new HealthReason.Failure(kind, HealthReason.Trigger.ACTIVE_PROBES_FAILED),
                    HealthStage.ACTIVE,
                    nowNanos);
        }
    }

    /**
     * Failed requests in a row while HEALTHY (failures whose effect is {@link FailureEffect#COOLS}).
     *
     * @return the count; reset by a success or a return to service
     */
    public int passiveFailureStreak() {
        return passiveStreak.get();
    }

    /**
     * Different destinations that failed target-side in a row while HEALTHY (no success between).
     *
     * @return the count of distinct destinations
     */
    public int targetFailureStreak() {
        return targetStreak.size();
    }

    /**
     * Failed active checks in a row while HEALTHY.
     *
     * @return the count; cools the proxy at {@code failuresToCool}
     */
    public int activeFailureStreak() {
        return activeStreak.get();
    }

    /**
     * Requests counted in the passive window ending at {@code nowNanos}.
     *
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     * @return requests, failures included
     */
    public long windowRequests(long nowNanos) {
        return window.requests(nowNanos);
    }

    /**
     * Failures counted in the passive window ending at {@code nowNanos}.
     *
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     * @return failures that count toward the error rate
     */
    public long windowFailures(long nowNanos) {
        return window.failures(nowNanos);
    }

    // ---- operator -------------------------------------------------------------------------------

    /**
     * Takes the proxy out until {@link #enable}; a no-op when already DISABLED.
     *
     * @param reason   the operator's words, kept in the status and history
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     */
    public void disable(String reason, long nowNanos) {
        disableFor(new HealthReason.Operator(reason), HealthStage.OPERATOR, nowNanos);
    }

    /**
     * An operator returns the proxy to service: a transition of its own (reason
     * {@code operator_enabled}); the history, the passive record and the backoff stay. A proxy whose
     * last checks failed (COOLING, disabled for a failure, or disabled by an operator while cooling
     * or with failures in a row) gets one recovery check first: it goes COOLING with its deadline
     * now, so the next admission is the single probe, and only a passing probe returns it to
     * HEALTHY (slow start). A proxy disabled while healthy returns to HEALTHY at once, with a slow
     * start. A no-op when HEALTHY, or in PROBE_ALLOWED (its recovery check is already running).
     *
     * @param reason   the operator's words, kept in the status and history
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     */
    public void enable(String reason, long nowNanos) {
        HealthReason why = new HealthReason.OperatorEnabled(reason);
        for (; ; ) {
            HealthStatus s = status;
            HealthStatus next = switch (s.state()) {
                case HEALTHY, PROBE_ALLOWED -> null;
                case COOLING -> s.toRecoveryCheck(why, HealthStage.OPERATOR, nowNanos);
                case DISABLED ->
                    failedBefore(s)
                            ? s.toRecoveryCheck(why, HealthStage.OPERATOR, nowNanos)
                            : s.toHealthy(why, HealthStage.OPERATOR, nowNanos);
            };
            if (next == null || transition(s, next)) {
                return;
            }
        }
    }

    /**
     * The credentials of this proxy's credential ref were reloaded: if a credential rejection
     * disabled it, that condition may be gone, so it gets one recovery check (COOLING with its
     * deadline now, reason {@code credentials_reloaded}); it returns to service only when the
     * check passes. Any other state is left alone.
     *
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     * @return true when the proxy was given a recovery check
     */
    public boolean credentialsReloaded(long nowNanos) {
        for (; ; ) {
            HealthStatus s = status;
            if (s.state() != HealthState.DISABLED
                    || !(s.reason() instanceof HealthReason.Failure f)
                    || f.kind() != FailureKind.PROXY_AUTH_REJECTED) {
                return false;
            }
            if (transition(
                    s,
                    s.toRecoveryCheck(HealthReason.Lifecycle.CREDENTIALS_RELOADED, HealthStage.OPERATOR, nowNanos))) {
                return true;
            }
        }
    }

    /**
     * An operator asks for a re-check: a COOLING proxy, or one DISABLED for a failure (not by an
     * operator: that one needs {@link #enable}), gets its one recovery check now (reason
     * {@code recheck_requested}); it returns to service only when the check passes.
     *
     * @param nowNanos the current {@link dev.proxypool.core.time.Ticker} reading
     * @return true when the proxy was given a recovery check
     */
    public boolean recheck(long nowNanos) {
        for (; ; ) {
            HealthStatus s = status;
            boolean eligible = s.state() == HealthState.COOLING
                    || (s.state() == HealthState.DISABLED && s.reason() instanceof HealthReason.Failure);
            if (!eligible) {
                return false;
            }
            if (transition(
                    s, s.toRecoveryCheck(HealthReason.Lifecycle.RECHECK_REQUESTED, HealthStage.OPERATOR, nowNanos))) {
                return true;
            }
        }
    }

    /** Whether the checks before {@code disabled} failed: it was disabled for a failure, while cooling, or mid-streak. */
    private boolean failedBefore(HealthStatus disabled) {
        if (disabled.reason() instanceof HealthReason.Failure) {
            return true;
        }
        if (passiveStreak.get() > 0 || activeStreak.get() > 0) {
            return true;
        }
        for (HealthStatus h : history.snapshot()) {
            if (h.sequence() == disabled.sequence() - 1) {
                return h.state() == HealthState.COOLING || h.state() == HealthState.PROBE_ALLOWED;
            }
        }
        return disabled.backoffNanos() > 0; // history rolled over: a kept backoff says it was cooling
    }

    // ---- internals ------------------------------------------------------------------------------

    private void onSuccess(Admission how, long latencyNanos, long nowNanos) {
        requireAdmitted(how);
        if (latencyNanos < 0) {
            throw new IllegalArgumentException("latencyNanos must not be negative, got " + latencyNanos);
        }
        boolean inPool = status.state() == HealthState.HEALTHY;
        weight.onSuccess(latencyNanos, inPool);
        leftPoolMeanwhile(inPool);
        for (; ; ) {
            long last = lastCheckedNanos.get();
            if (nowNanos - last <= 0 || lastCheckedNanos.compareAndSet(last, nowNanos)) {
                return;
            }
        }
    }

    private FailureEffect onFailure(Admission how, FailureKind kind) {
        requireAdmitted(how);
        if (kind == null) {
            throw new IllegalArgumentException("failure kind must not be null");
        }
        FailureEffect effect = FailureEffect.of(kind);
        if (effect != FailureEffect.TARGET_SIDE) { // the destination's failure says nothing of the proxy's speed
            boolean inPool = status.state() == HealthState.HEALTHY;
            weight.onFailure(inPool);
            leftPoolMeanwhile(inPool);
        }
        return effect;
    }

    /**
     * A transition away from HEALTHY may have withdrawn the weight's numbers between our state check
     * and our publish: take them out again, so a cooling proxy never stays in its peers' baseline.
     */
    private void leftPoolMeanwhile(boolean published) {
        if (published && status.state() != HealthState.HEALTHY) {
            weight.withdraw();
        }
    }

    private static void requireAdmitted(Admission how) {
        if (how != Admission.ADMITTED && how != Admission.PROBE) {
            throw new IllegalArgumentException("admission must be ADMITTED or PROBE to report an outcome, got " + how);
        }
    }

    /** Turns an unanswered probe whose deadline passed into a failed one; returns the status after that. */
    private HealthStatus settleExpiredProbe(long nowNanos) {
        HealthStatus s = status;
        while (s.state() == HealthState.PROBE_ALLOWED && nowNanos - s.probeDeadlineNanos() >= 0) {
            expireProbe(s);
            s = status;
        }
        return s;
    }

    /** Counts the unanswered probe of {@code s} as failed, as of its deadline (a lost CAS means someone else did). */
    private void expireProbe(HealthStatus s) {
        HealthStage stage = s.probeHolder() == ProbeHolder.PROBER ? HealthStage.ACTIVE : HealthStage.PROBE;
        transition(
                s,
                s.toCooling(
                        HealthReason.Lifecycle.PROBE_EXPIRED,
                        stage,
                        s.probeDeadlineNanos(),
                        nextBackoff(s.backoffNanos())));
    }

    /** Settles the probe held by {@code holder}: {@code failure == null} means it succeeded. Stale reports are ignored. */
    private void resolveProbe(ProbeHolder holder, HealthStage stage, FailureKind failure, long nowNanos) {
        for (; ; ) {
            HealthStatus s = status;
            if (s.state() != HealthState.PROBE_ALLOWED || s.probeHolder() != holder) {
                return;
            }
            HealthStatus next;
            if (failure == null) {
                resetRecord();
                next = s.toHealthy(HealthReason.Lifecycle.PROBE_SUCCEEDED, stage, nowNanos);
            } else {
                next = s.toCooling(
                        new HealthReason.Failure(failure, HealthReason.Trigger.PROBE_FAILED),
                        stage,
                        nowNanos,
                        nextBackoff(s.backoffNanos()));
            }
            if (transition(s, next)) {
                return;
            }
        }
    }

    private void cool(HealthReason why, HealthStage stage, long nowNanos) {
        for (; ; ) {
            HealthStatus s = status;
            if (s.state() != HealthState.HEALTHY) {
                return;
            }
            if (transition(s, s.toCooling(why, stage, nowNanos, cooldownInitialNanos))) {
                return;
            }
        }
    }

    private void disableFor(HealthReason why, HealthStage stage, long nowNanos) {
        for (; ; ) {
            HealthStatus s = status;
            if (s.state() == HealthState.DISABLED) {
                return;
            }
            if (transition(s, s.toDisabled(why, stage, nowNanos))) {
                return;
            }
        }
    }

    private long nextBackoff(long current) {
        if (current <= 0) {
            return cooldownInitialNanos;
        }
        return current >= cooldownMaxNanos / 2 ? cooldownMaxNanos : current * 2;
    }

    /** A returning proxy is judged afresh: window, streaks and success history cleared. */
    private void resetRecord() {
        window.reset();
        passiveStreak.set(0);
        activeStreak.set(0);
        targetStreak.reset();
        weight.resetSuccess();
    }

    private boolean transition(HealthStatus from, HealthStatus to) {
        if (!STATUS.compareAndSet(this, from, to)) {
            return false;
        }
        if (to.state() != HealthState.HEALTHY) {
            weight.withdraw(); // peers are compared with the upstream's healthy proxies only
        }
        history.add(to);
        try {
            listener.onTransition(from, to);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "health listener failed on " + from.state() + " -> " + to.state(), e);
        }
        return true;
    }
}
