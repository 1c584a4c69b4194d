package dev.proxypool.sdk.coordination;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.redis.RedisAccess;
import dev.proxypool.sdk.redis.RedisCommandException;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.SetParams;

/**
 * A worker's side of snapshot distribution (docs/design.md#snapshots-and-distribution, N4): keeps a complete copy of the control plane's
 * pool content and hands each new version to a {@link SnapshotConsumer}, in order.
 *
 * <p><b>Algorithm.</b> Two background tasks ({@link BackgroundTasks}). The <em>listener</em> holds a dedicated pub/sub
 * connection on {@code <prefix>snapshot:events} and, on each event or (re)subscription, wakes the
 * <em>syncer</em>; it reconnects with exponential backoff. The syncer catches up: it reads the
 * head of the full snapshot hash ({@code HMGET e v}), then the deltas after its version from the
 * stream ({@code XRANGE <v+1>-0 + COUNT 16}) and applies them strictly in order, each checked
 * against the frame's version, epoch, size and {@link ContentDigest} before anything changes. A
 * missing version, a trimmed stream, a reset marker, a corrupt frame or a digest mismatch is a
 * <em>gap</em>: the syncer loads the full snapshot, bridges from it with the stream's deltas, and
 * adopts the result if it is newer (or of a new epoch); when even that cannot get past the gap it
 * keeps its content and asks the control plane to rewrite the full ({@code <prefix>snapshot:resync}).
 * Pub/sub is at-most-once, so the syncer also polls every {@link ClusterSettings#pollInterval()}.
 *
 * <p><b>Outages.</b> Redis or the control plane being down never clears the content: the worker
 * keeps serving its last complete snapshot, {@link #status()} reports age, validity and
 * reachability, and expired proxies drop out by TTL in the engine on their own.
 *
 * <p><b>Bounds.</b> Memory: one content (a map of n proxies) plus one batch of at most 16 frames;
 * work per version O(changes) to verify and apply, O(n) to hand the list over. {@link #close()} is
 * prompt: it closes the subscription socket and interrupts both threads (blocking socket I/O on a
 * virtual thread is interruptible).
 *
 * <p>Thread-safety: the content is owned by the syncer thread; {@link #status()} and
 * {@link #current()} read volatile fields and may be called from any thread.
 */
public final class SnapshotSubscriber implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(SnapshotSubscriber.class.getName());
    private static final int BATCH = 16;
    private static final long RESYNC_REQUEST_TTL_MS = 60_000;

    private final RedisAccess redis;
    private final CoordinationKeys keys;
    private final ClusterSettings settings;
    private final SnapshotConsumer consumer;
    private final InstantSource wall;
    private final Ticker ticker;
    private final byte[] fullKey;
    private final byte[] deltasKey;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final Condition progress = lock.newCondition();
    private final Condition stopping = lock.newCondition();
    private boolean pending = true;
    private volatile boolean running = true;

    /** The content and header the worker serves; owned by the syncer thread. */
    private Cursor live;

    private volatile ReceivedSnapshot last;
    private volatile boolean subscribed;
    private volatile boolean reachable;
    private volatile long lastContactNanos;
    private volatile String lastError = "";
    private volatile Jedis subscription;
    private final AtomicLong deltasApplied = new AtomicLong();
    private final AtomicLong fullLoads = new AtomicLong();
    private final AtomicLong resyncRequests = new AtomicLong();
    private final long startedNanos;
    private final BackgroundTasks tasks = BackgroundTasks.of("snapshot subscriber");

    /** A content with the header of the version it is at. */
    private static final class Cursor {
        final PoolContent content;
        SnapshotHeader header;

        Cursor(PoolContent content, SnapshotHeader header) {
            this.content = content;
            this.header = header;
        }
    }

    private SnapshotSubscriber(
            RedisAccess redis,
            CoordinationKeys keys,
            ClusterSettings settings,
            SnapshotConsumer consumer,
            InstantSource wall,
            Ticker ticker) {
        this.redis = redis;
        this.keys = keys;
        this.settings = settings;
        this.consumer = consumer;
        this.wall = wall;
        this.ticker = ticker;
        this.fullKey = CoordinationKeys.bytes(keys.full());
        this.deltasKey = CoordinationKeys.bytes(keys.deltas());
        this.startedNanos = ticker.read();
        this.lastContactNanos = startedNanos;
    }

    /**
     * Starts following the snapshots under {@code redis}'s key prefix. Returns at once: the first
     * content arrives on the consumer when loaded (see {@link #awaitVersion}); a Redis that is down
     * now is retried with backoff.
     */
    public static SnapshotSubscriber start(
            RedisStoreConfig redis,
            ClusterSettings settings,
            SnapshotConsumer consumer,
            InstantSource wall,
            Ticker ticker) {
        if (redis == null) {
            throw new IllegalArgumentException("snapshot subscriber needs redis config, settings, consumer and clocks");
        }
        return start(CoordinationRedis.of(redis), settings, consumer, wall, ticker);
    }

    /**
     * {@link #start(RedisStoreConfig, ClusterSettings, SnapshotConsumer, InstantSource, Ticker)} on
     * one Redis node or a Redis Cluster. On a cluster the events arrive on a connection to the first
     * seed node that answers (cluster pub/sub reaches every node); polling covers its outages.
     */
    public static SnapshotSubscriber start(
            CoordinationRedis redis,
            ClusterSettings settings,
            SnapshotConsumer consumer,
            InstantSource wall,
            Ticker ticker) {
        if (redis == null || settings == null || consumer == null || wall == null || ticker == null) {
            throw new IllegalArgumentException("snapshot subscriber needs redis config, settings, consumer and clocks");
        }
        SnapshotSubscriber s =
                new SnapshotSubscriber(redis.open("worker", 2), redis.keys(), settings, consumer, wall, ticker);
        s.tasks.loop("snapshot-sync", s::sync);
        s.tasks.loop("snapshot-events", s::listen);
        return s;
    }

    // ---- listener: pub/sub events wake the syncer ----

    private void listen() {
        long backoff = settings.backoffMin().toNanos();
        while (running) {
            Jedis j = null;
            Events events = new Events();
            try {
                j = redis.dedicatedConnection();
                subscription = j;
                if (!running) {
                    break;
                }
                j.subscribe(events, keys.events());
            } catch (RuntimeException e) {
                if (running) {
                    note(redis.failure(e));
                }
            } finally {
                subscribed = false;
                subscription = null;
                closeQuietly(j);
            }
            if (events.confirmed) {
                backoff = settings.backoffMin().toNanos();
            }
            pause(backoff);
            backoff = Math.min(backoff * 2, settings.backoffMax().toNanos());
        }
    }

    private final class Events extends JedisPubSub {
        volatile boolean confirmed;

        @Override
        public void onSubscribe(String channel, int count) {
            confirmed = true;
            subscribed = true;
            wakeSyncer(); // catch up on whatever was published while not subscribed
        }

        @Override
        public void onMessage(String channel, String message) {
            ReceivedSnapshot held = last;
            int colon = message.indexOf(':');
            try {
                long epoch = Long.parseLong(message, 0, colon, 10);
                long version = Long.parseLong(message, colon + 1, message.length(), 10);
                if (held == null || epoch != held.epoch() || version > held.version()) {
                    wakeSyncer();
                }
            } catch (RuntimeException e) {
                wakeSyncer(); // unknown message: check anyway
            }
        }
    }

    // ---- syncer: applies versions in order ----

    private void sync() {
        long backoff = settings.backoffMin().toNanos();
        while (running) {
            long wait = settings.pollInterval().toNanos();
            try {
                catchUp();
                reachable = true;
                lastContactNanos = ticker.read();
                backoff = settings.backoffMin().toNanos();
            } catch (StoreUnavailableException | RedisCommandException | JedisException e) {
                note(e); // first: whoever sees "unreachable" in the status also sees why
                reachable = false;
                wait = backoff;
                backoff = Math.min(backoff * 2, settings.backoffMax().toNanos());
            } catch (RuntimeException e) {
                note(e);
                LOG.log(Level.WARNING, "snapshot sync failed", e);
            }
            awaitWork(wait);
        }
    }

    private void catchUp() {
        List<?> head = redis.call(c -> c.hmget(fullKey, CoordinationKeys.bytes("e"), CoordinationKeys.bytes("v")));
        long headEpoch = head.get(0) == null ? 0 : Long.parseLong(text(head.get(0)));
        long headVersion = head.get(1) == null ? 0 : Long.parseLong(text(head.get(1)));
        if (live == null || (headEpoch != 0 && headEpoch != live.header.epoch())) {
            if (!loadFull() && live == null) {
                if (headVersion > 0) {
                    requestResync("the full snapshot is unreadable");
                }
                return;
            }
        }
        boolean gap = !advance(live, true) || headVersion > live.header.version() && headEpoch == live.header.epoch();
        if (gap && running) {
            if (!loadFull() || !advance(live, true)) {
                requestResync(
                        "version " + (live.header.version() + 1) + " cannot be reached from the stream or the full");
            }
        }
    }

    /**
     * Applies the stream's deltas after {@code c}'s version to {@code c}, in order, delivering each
     * version when {@code deliver}. @return false at a gap, true when the stream is exhausted
     */
    private boolean advance(Cursor c, boolean deliver) {
        while (running) {
            long from = c.header.version() + 1;
            List<Object> raw = redis.call(
                    r -> r.xrange(deltasKey, CoordinationKeys.bytes(from + "-0"), CoordinationKeys.bytes("+"), BATCH));
            for (Object o : raw) {
                if (!applyEntry(c, (List<?>) o)) {
                    return false;
                }
                if (deliver) {
                    deltasApplied.incrementAndGet();
                    deliver(false);
                }
            }
            if (raw.size() < BATCH) {
                return true;
            }
        }
        return true;
    }

    private static boolean applyEntry(Cursor c, List<?> entry) {
        String id = text(entry.get(0));
        long version = Long.parseLong(id, 0, id.indexOf('-'), 10);
        if (version != c.header.version() + 1) {
            return false;
        }
        byte[] bytes = field((List<?>) entry.get(1), "d");
        if (bytes == null) {
            return false;
        }
        SnapshotFrame frame;
        try {
            frame = SnapshotCodec.decode(bytes);
        } catch (SnapshotFormatException e) {
            LOG.log(Level.WARNING, "snapshot delta {0} is corrupt: {1}", version, e.getMessage());
            return false;
        }
        SnapshotHeader h = frame.header();
        if (h.version() != version || h.epoch() != c.header.epoch()) {
            return false;
        }
        return switch (frame) {
            case SnapshotFrame.Delta d -> {
                if (!c.content.apply(d.upserts(), d.removed(), h.size(), h.digest())) {
                    LOG.log(
                            Level.WARNING,
                            "snapshot delta {0} does not fit version {1} (digest or size mismatch)",
                            version,
                            c.header.version());
                    yield false;
                }
                c.header = h;
                yield true;
            }
            case SnapshotFrame.Reset r -> false;
            case SnapshotFrame.Full f -> false;
        };
    }

    /**
     * Loads the full snapshot, bridges it forward with the stream, and adopts it if it is newer
     * than the held content or of another epoch. @return true when adopted
     */
    private boolean loadFull() {
        byte[] bytes = redis.call(c -> c.hget(fullKey, CoordinationKeys.bytes("d")));
        if (bytes == null) {
            return false;
        }
        SnapshotFrame.Full full;
        PoolContent content;
        try {
            if (!(SnapshotCodec.decode(bytes) instanceof SnapshotFrame.Full f)) {
                throw new SnapshotFormatException("the full snapshot key holds a delta frame");
            }
            full = f;
            content = PoolContent.of(full.proxies());
            if (content.size() != full.header().size()
                    || content.digest() != full.header().digest()) {
                throw new SnapshotFormatException("full snapshot " + full.version() + " does not match its digest");
            }
        } catch (IllegalArgumentException e) {
            note(e);
            LOG.log(Level.WARNING, "full snapshot unusable: {0}", e.getMessage());
            return false;
        }
        Cursor scratch = new Cursor(content, full.header());
        advance(scratch, false);
        if (live != null
                && scratch.header.epoch() == live.header.epoch()
                && scratch.header.version() <= live.header.version()) {
            return false;
        }
        live = scratch;
        fullLoads.incrementAndGet();
        deliver(true);
        return true;
    }

    private void requestResync(String why) {
        redis.call(c -> c.set(
                CoordinationKeys.bytes(keys.resync()),
                CoordinationKeys.bytes("1"),
                new SetParams().px(RESYNC_REQUEST_TTL_MS)));
        resyncRequests.incrementAndGet();
        lastError = "resync requested: " + why;
        LOG.log(
                Level.WARNING,
                "snapshot gap: {0}; keeping version {1} and asking the control plane for a full snapshot",
                why,
                live == null ? 0 : live.header.version());
    }

    private void deliver(boolean resynced) {
        SnapshotHeader h = live.header;
        ReceivedSnapshot snapshot = new ReceivedSnapshot(
                h.epoch(), h.version(), h.publishedAt(), h.validUntil(), live.content.proxies(), resynced);
        try {
            consumer.accept(snapshot);
        } catch (RuntimeException e) {
            note(e);
            LOG.log(Level.WARNING, "snapshot consumer failed on version " + h.version(), e);
        }
        // only now: a caller of awaitVersion that sees this version finds it applied, not on its way
        last = snapshot;
        lock.lock();
        try {
            progress.signalAll();
        } finally {
            lock.unlock();
        }
    }

    // ---- coordination ----

    private void wakeSyncer() {
        lock.lock();
        try {
            pending = true;
            work.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void awaitWork(long nanos) {
        lock.lock();
        try {
            while (running && !pending && nanos > 0) {
                nanos = work.awaitNanos(nanos);
            }
            pending = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    private void pause(long nanos) {
        lock.lock();
        try {
            while (running && nanos > 0) {
                nanos = stopping.awaitNanos(nanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the held content reaches {@code version} (any version of a newer epoch counts).
     *
     * @return false on timeout or when closed
     */
    public boolean awaitVersion(long version, Duration timeout) throws InterruptedException {
        long nanos = timeout.toNanos();
        lock.lock();
        try {
            while (running && (last == null || last.version() < version)) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = progress.awaitNanos(nanos);
            }
            return last != null && last.version() >= version;
        } finally {
            lock.unlock();
        }
    }

    /** The last complete content handed to the consumer. */
    public Optional<ReceivedSnapshot> current() {
        return Optional.ofNullable(last);
    }

    public SubscriberStatus status() {
        ReceivedSnapshot s = last;
        Instant now = wall.instant();
        long sinceContact = ticker.read() - lastContactNanos;
        if (s == null) {
            return new SubscriberStatus(
                    0,
                    0,
                    0,
                    Instant.EPOCH,
                    Instant.EPOCH,
                    Duration.ZERO,
                    false,
                    subscribed,
                    reachable,
                    Duration.ofNanos(sinceContact),
                    deltasApplied.get(),
                    fullLoads.get(),
                    resyncRequests.get(),
                    lastError);
        }
        Duration age = Duration.between(s.publishedAt(), now);
        return new SubscriberStatus(
                s.epoch(),
                s.version(),
                s.proxies().size(),
                s.publishedAt(),
                s.validUntil(),
                age.isNegative() ? Duration.ZERO : age,
                now.isBefore(s.validUntil()),
                subscribed,
                reachable,
                Duration.ofNanos(sinceContact),
                deltasApplied.get(),
                fullLoads.get(),
                resyncRequests.get(),
                lastError);
    }

    /** Stops both threads promptly (closing the subscription socket) and the Redis connections. Idempotent. */
    @Override
    public void close() {
        running = false;
        lock.lock();
        try {
            work.signalAll();
            progress.signalAll();
            stopping.signalAll();
        } finally {
            lock.unlock();
        }
        closeQuietly(subscription);
        tasks.close(); // interrupts the listener and the syncer and joins them
        redis.close();
    }

    // ---- helpers ----

    private void note(Exception e) {
        lastError = e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private static void closeQuietly(Jedis j) {
        if (j != null) {
            try {
                j.close();
            } catch (RuntimeException ignored) {
                // already broken
            }
        }
    }

    private static String text(Object o) {
        return new String((byte[]) o, StandardCharsets.UTF_8);
    }

    private static byte[] field(List<?> fields, String name) {
        for (int i = 0; i + 1 < fields.size(); i += 2) {
            if (name.equals(text(fields.get(i)))) {
                return (byte[]) fields.get(i + 1);
            }
        }
        return null;
    }
}
