package dev.proxypool.sdk.probe;

import dev.proxypool.core.capacity.Reservation;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.runtime.ProxyRuntime;
import dev.proxypool.core.runtime.RuntimeRegistry;
import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.dial.UpstreamDialer;
import dev.proxypool.sdk.validate.ExchangeException;
import dev.proxypool.sdk.validate.ExchangeStep;
import dev.proxypool.sdk.validate.HttpReply;
import dev.proxypool.sdk.validate.ProxiedExchange;
import java.net.URI;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import javax.net.ssl.SSLContext;

/**
 * Active health checks (docs/design.md#probes, H9): every {@code interval}, for each proxy of the current snapshot,
 * take the prober's admission from {@link ProxyHealth#tryAdmitActiveProbe(long)} (DENIED → skip:
 * cooling, disabled, or the recovery permit is held elsewhere; PROBE → this is the single recovery
 * attempt), send a real request through the proxy ({@link ProxiedExchange}: TCP connect, the proxy
 * handshake with credentials, a {@code GET} to a target) and report
 * {@link ProxyHealth#recordActiveSuccess} or {@link ProxyHealth#recordActiveFailure} with the
 * classified {@link FailureKind}. The core decides what that means ({@code failuresToCool}
 * failures in a row cool a proxy; the recovery probe restores or extends the cooldown).
 *
 * <p><b>Targets.</b> Probes rotate over the configured set (among the targets the proxy's protocol
 * can reach): round {@code k} probes a proxy against target {@code (phase(proxy) + k) mod n}, so
 * successive probes of one proxy visit every target in turn (a check never measures one
 * destination only), and within a round the proxies spread evenly over the targets (the phase is
 * the proxy id's hash plus a random start). <em>Rule for a dead target:</em> a failure is counted at once
 * only when the target was not involved yet: missing credentials, the TCP connect or TLS to the
 * proxy, or credentials rejected. Any later failure (the proxy could not reach the target, the
 * tunnel or reply failed, a bad status) is confirmed by a second probe of the same proxy against a
 * different target, the next one in the proxy's rotation; if that one works, the first failure is
 * {@link ProbeOutcome#EXCUSED} (not reported) and the success is reported; only a failure on both
 * is reported. So a target that fails for every proxy in a round, while others work, never counts
 * against any proxy, and neither does a target that merely blocks some exits. With a single target
 * there is nothing to confirm against and failures count directly (configure at least two). A
 * target that was tried in a round and never answered while another did is listed in
 * {@link ProbeRound#deadTargets()}.
 *
 * <p><b>Capacity.</b> A probe holds one unit of the proxy's capacity ({@code maxConcurrency}, or
 * this worker's share of it) for its whole life, the confirming second exchange included, exactly
 * like a request: a vendor port limited to one connection never sees a probe next to a request.
 * A proxy whose every unit is in use is {@link ProbeOutcome#SKIPPED} this round (its traffic's
 * outcomes judge it), and a request finding the unit taken by a probe goes to another proxy.
 *
 * <p><b>Bounded.</b> At most {@code concurrency} probes (two exchanges in sequence when confirming)
 * run at once, on virtual threads pulling from the snapshot's iterator; each exchange has a hard
 * deadline of {@code timeout}. Admission is taken right before each probe, so a recovery permit is
 * answered within one or two timeouts.
 *
 * <p><b>Time.</b> {@link #runOnce()} runs one round synchronously, reading the injected ticker for
 * admissions and reports, so tests drive rounds with a manual clock. {@link #start()} runs rounds
 * on a virtual thread every {@code interval} until {@link #close()}. Thread-safe; rounds may overlap
 * only if the caller runs them so (the health engine keeps the single recovery permit either way).
 */
public final class ActiveProber implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ActiveProber.class.getName());

    private final ProxiedExchange exchange;
    private final Supplier<? extends Collection<Proxy>> proxies;
    private final RuntimeRegistry registry;
    private final ProberSettings settings;
    private final Ticker ticker;
    /** The rotation's start, drawn once from the builder's random. */
    private final int phase;
    /** Rounds started: the rotation step. */
    private final AtomicLong rounds = new AtomicLong();

    private final ProbeListener listener;
    private final ProbeCounters counters = new ProbeCounters();
    private final ReentrantLock scheduleLock = new ReentrantLock();
    private final Condition wake = scheduleLock.newCondition();
    private final BackgroundTasks tasks = BackgroundTasks.of("active prober");
    private BackgroundTasks.Task loop; // guarded by scheduleLock
    private boolean stopped;

    private ActiveProber(Builder b, SSLContext tls) {
        this.proxies = b.proxies;
        this.registry = b.registry;
        this.settings = b.settings;
        this.ticker = b.ticker != null ? b.ticker : b.registry.ticker();
        this.phase = b.random.nextInt(1 << 20);
        this.listener = b.listener;
        this.exchange = new ProxiedExchange(b.dialer, tls, ticker);
    }

    /**
     * @param proxies  the current snapshot's proxies, asked once per round
     * @param registry where each proxy's {@link ProxyHealth} lives
     */
    public static Builder builder(
            UpstreamDialer dialer, Supplier<? extends Collection<Proxy>> proxies, RuntimeRegistry registry) {
        return new Builder(dialer, proxies, registry);
    }

    public ProberSettings settings() {
        return settings;
    }

    /** Outcomes since creation. */
    public ProbeCounters counters() {
        return counters;
    }

    /** Probes every proxy of the current snapshot once, with bounded concurrency; returns when all are done. */
    public ProbeRound runOnce() {
        long start = ticker.read();
        Collection<Proxy> snapshot = proxies.get();
        Round round = new Round(settings.targets().size(), rounds.getAndIncrement());
        Iterator<Proxy> it = snapshot.iterator();
        int workers = Math.min(settings.concurrency(), snapshot.size());
        List<Thread> threads = new ArrayList<>(workers);
        for (int i = 0; i < workers; i++) {
            threads.add(Thread.ofVirtual().name("proxypool-probe-" + i).start(() -> {
                for (Proxy p = next(it); p != null && !Thread.currentThread().isInterrupted(); p = next(it)) {
                    try {
                        probe(p, round);
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.WARNING, "probing proxy " + p.id() + " failed", e);
                    }
                }
            }));
        }
        try {
            for (Thread t : threads) {
                t.join();
            }
        } catch (InterruptedException e) {
            threads.forEach(Thread::interrupt);
            Thread.currentThread().interrupt();
        }
        ProbeRound r = round.summary(
                snapshot.size(), settings.targets(), Duration.ofNanos(Math.max(0, ticker.read() - start)));
        counters.round();
        quietly(() -> listener.roundCompleted(r));
        return r;
    }

    /**
     * Runs {@link #runOnce()} every {@code interval} (background task {@code proxypool-prober},
     * {@link BackgroundTasks}) until {@link #close()}.
     */
    public void start() {
        scheduleLock.lock();
        try {
            if (loop != null || stopped) {
                throw new IllegalStateException("the prober was already started or closed");
            }
            loop = tasks.loop("proxypool-prober", this::schedule);
        } finally {
            scheduleLock.unlock();
        }
    }

    /** Stops the schedule; a round in progress is cut short (its probes are interrupted). */
    @Override
    public void close() {
        scheduleLock.lock();
        try {
            stopped = true;
            wake.signalAll();
        } finally {
            scheduleLock.unlock();
        }
        tasks.close(); // interrupts the schedule (and so the round in progress) and joins it
    }

    private void schedule() {
        long intervalNanos = settings.interval().toNanos();
        while (true) {
            long begin = ticker.read();
            try {
                runOnce();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "active probing round failed", e);
            }
            scheduleLock.lock();
            try {
                long left = intervalNanos - (ticker.read() - begin);
                while (!stopped && left > 0) {
                    left = wake.awaitNanos(left);
                }
                if (stopped) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            } finally {
                scheduleLock.unlock();
            }
        }
    }

    private static Proxy next(Iterator<Proxy> it) {
        synchronized (it) {
            return it.hasNext() ? it.next() : null;
        }
    }

    private void probe(Proxy proxy, Round round) {
        List<Integer> reachable = reachableTargets(proxy);
        if (reachable.isEmpty()) {
            skip(proxy, round);
            return;
        }
        ProxyRuntime runtime = registry.runtimeFor(proxy);
        // A probe is one more connection through the proxy: it takes a unit of maxConcurrency like a
        // request, before the admission (so a full proxy never takes, and then wastes, a recovery permit).
        Reservation unit = runtime.capacity().tryReserve();
        if (unit == null) {
            skip(proxy, round); // every unit carries traffic: its outcomes judge the proxy
            return;
        }
        try {
            probe(proxy, runtime.health(), reachable, round);
        } finally {
            unit.release();
        }
    }

    private void probe(Proxy proxy, ProxyHealth health, List<Integer> reachable, Round round) {
        Admission admission = health.tryAdmitActiveProbe(ticker.read());
        if (admission == Admission.DENIED) {
            skip(proxy, round);
            return;
        }
        int first = rotation(proxy, reachable, round.number, 0);
        Attempt a = attempt(proxy, first, round);
        if (!a.ok() && reachable.size() > 1 && targetMayBeAtFault(a)) {
            Attempt failedFirst = a;
            a = attempt(proxy, rotation(proxy, reachable, round.number, 1), round);
            if (a.ok()) {
                round.excused.incrementAndGet();
                counters.outcome(ProbeOutcome.EXCUSED);
                quietly(() -> listener.excused(proxy, settings.targets().get(first), failedFirst.kind()));
            }
        }
        if (a.ok()) {
            health.recordActiveSuccess(admission, a.latencyNanos(), ticker.read());
            round.succeeded.incrementAndGet();
            counters.outcome(ProbeOutcome.SUCCEEDED);
            Attempt done = a;
            quietly(() -> listener.succeeded(
                    proxy, settings.targets().get(done.target()), Duration.ofNanos(done.latencyNanos())));
        } else {
            health.recordActiveFailure(admission, a.kind(), ticker.read());
            round.failed.incrementAndGet();
            counters.failed(a.kind());
            Attempt done = a;
            quietly(() -> listener.failed(proxy, settings.targets().get(done.target()), done.kind()));
        }
    }

    private void skip(Proxy proxy, Round round) {
        round.skipped.incrementAndGet();
        counters.outcome(ProbeOutcome.SKIPPED);
        quietly(() -> listener.skipped(proxy));
    }

    /** One exchange through {@code proxy} to target {@code t}. */
    private Attempt attempt(Proxy proxy, int t, Round round) {
        round.attempts.incrementAndGet(t);
        try {
            HttpReply reply = exchange.get(proxy, settings.targets().get(t), settings.timeout(), false);
            if (reply.delivered()) {
                round.successes.incrementAndGet(t);
                return new Attempt(
                        t, true, null, ExchangeStep.RESPONSE, reply.latency().toNanos());
            }
            return new Attempt(
                    t, false, reply.proxyFailure().orElse(FailureKind.UPSTREAM_UNREACHABLE), ExchangeStep.RESPONSE, 0);
        } catch (ExchangeException e) {
            return new Attempt(t, false, e.kind(), e.step(), 0);
        }
    }

    /** False when the failure happened before the target was involved: the proxy's own. */
    private static boolean targetMayBeAtFault(Attempt a) {
        return switch (a.step()) {
            case CREDENTIALS, CONNECT, PROXY_TLS -> false;
            case HANDSHAKE, TARGET_TLS, REQUEST, RESPONSE -> a.kind() != FailureKind.PROXY_AUTH_REJECTED;
        };
    }

    private List<Integer> reachableTargets(Proxy proxy) {
        List<URI> targets = settings.targets();
        List<Integer> ok = new ArrayList<>(targets.size());
        for (int i = 0; i < targets.size(); i++) {
            String host = targets.get(i).getHost();
            if (UpstreamDialer.supports(
                    proxy.protocol(), host.startsWith("[") ? host.substring(1, host.length() - 1) : host)) {
                ok.add(i);
            }
        }
        return ok;
    }

    /**
     * The target index {@code step} places after this round's target of {@code proxy} in its rotation
     * over {@code from} (step 1: the confirming target, a different one when there is a choice).
     */
    private int rotation(Proxy proxy, List<Integer> from, long roundNumber, int step) {
        long position = (long) proxy.id().hashCode() + phase + roundNumber + step;
        return from.get((int) Math.floorMod(position, (long) from.size()));
    }

    private static void quietly(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "probe listener failed", e);
        }
    }

    /** One exchange's outcome: {@code kind} null when it worked. */
    private record Attempt(int target, boolean ok, FailureKind kind, ExchangeStep step, long latencyNanos) {}

    /** Tallies of one round. */
    private static final class Round {
        final AtomicInteger succeeded = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final AtomicInteger excused = new AtomicInteger();
        final AtomicInteger skipped = new AtomicInteger();
        final AtomicIntegerArray attempts;
        final AtomicIntegerArray successes;
        /** This round's step in every proxy's target rotation. */
        final long number;

        Round(int targets, long number) {
            this.number = number;
            attempts = new AtomicIntegerArray(targets);
            successes = new AtomicIntegerArray(targets);
        }

        ProbeRound summary(int proxies, List<URI> targets, Duration elapsed) {
            boolean anyWorked = false;
            for (int t = 0; t < targets.size(); t++) {
                anyWorked |= successes.get(t) > 0;
            }
            List<URI> dead = new ArrayList<>();
            for (int t = 0; t < targets.size() && anyWorked; t++) {
                if (attempts.get(t) > 0 && successes.get(t) == 0) {
                    dead.add(targets.get(t));
                }
            }
            return new ProbeRound(proxies, succeeded.get(), failed.get(), excused.get(), skipped.get(), dead, elapsed);
        }
    }

    /** Options of an {@link ActiveProber}. */
    public static final class Builder {
        private final UpstreamDialer dialer;
        private final Supplier<? extends Collection<Proxy>> proxies;
        private final RuntimeRegistry registry;
        private ProberSettings settings = ProberSettings.DEFAULTS;
        private SSLContext targetTls;
        private Ticker ticker;
        private RandomGenerator random = new Random();
        private ProbeListener listener = ProbeListener.none();

        private Builder(
                UpstreamDialer dialer, Supplier<? extends Collection<Proxy>> proxies, RuntimeRegistry registry) {
            this.dialer = Objects.requireNonNull(dialer, "dialer");
            this.proxies = Objects.requireNonNull(proxies, "proxies");
            this.registry = Objects.requireNonNull(registry, "runtime registry");
        }

        public Builder settings(ProberSettings s) {
            this.settings = Objects.requireNonNull(s, "prober settings");
            return this;
        }

        /** Trust for {@code https://} targets; default the JVM's default context. */
        public Builder targetTls(SSLContext context) {
            this.targetTls = Objects.requireNonNull(context, "target TLS context");
            return this;
        }

        /** The clock of admissions, reports and latency; default the registry's ticker (health must agree). */
        public Builder ticker(Ticker t) {
            this.ticker = Objects.requireNonNull(t, "ticker");
            return this;
        }

        /** Draws the start of the target rotation once; default a fresh {@link java.util.Random}. */
        public Builder random(RandomGenerator r) {
            this.random = Objects.requireNonNull(r, "random");
            return this;
        }

        public Builder listener(ProbeListener l) {
            this.listener = Objects.requireNonNull(l, "listener");
            return this;
        }

        public ActiveProber build() {
            SSLContext tls = targetTls;
            if (tls == null) {
                try {
                    tls = SSLContext.getDefault();
                } catch (NoSuchAlgorithmException e) {
                    throw new IllegalStateException("the JVM has no default TLS context", e);
                }
            }
            return new ActiveProber(this, tls);
        }
    }
}
