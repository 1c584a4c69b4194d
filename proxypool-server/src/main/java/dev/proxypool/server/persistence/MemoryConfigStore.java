package dev.proxypool.server.persistence;

import dev.proxypool.core.sequential.SequentialState;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The embedded {@link ConfigStore}: the configuration of {@code proxypool.yaml} held in memory and
 * changed by the admin API until the process ends (nothing is written back to the file). The
 * audit log keeps the newest {@value #DEFAULT_AUDIT_CAPACITY} rows.
 *
 * <p>Writes take one lock, run the edit on the current state and publish the next state and its
 * audit row together: an edit that throws leaves both untouched. Reads of {@link #state()} are a
 * volatile read.
 */
public final class MemoryConfigStore implements ConfigStore {

    public static final int DEFAULT_AUDIT_CAPACITY = 10_000;

    private final InstantSource clock;
    private final int auditCapacity;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile ConfigState state;
    private final ArrayDeque<AuditEntry> audit = new ArrayDeque<>(); // newest last; guarded by lock
    private long nextAuditId = 1; // guarded by lock
    private final Map<String, SequentialState> sequential = new LinkedHashMap<>(); // guarded by lock
    private final Map<String, StoredOperator> operators = new TreeMap<>(); // guarded by lock
    private volatile boolean closed;

    public MemoryConfigStore(ConfigState initial, InstantSource clock) {
        this(initial, clock, DEFAULT_AUDIT_CAPACITY);
    }

    public MemoryConfigStore(ConfigState initial, InstantSource clock, int auditCapacity) {
        this.state = Objects.requireNonNull(initial, "initial");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (auditCapacity < 1) {
            throw new IllegalArgumentException("audit capacity must be at least 1, got " + auditCapacity);
        }
        this.auditCapacity = auditCapacity;
    }

    @Override
    public ConfigState state() {
        open();
        return state;
    }

    @Override
    public ConfigChange apply(ConfigEdit edit, String actor) {
        lock.lock();
        try {
            open();
            ConfigState current = state;
            PendingChange change = edit.apply(current);
            ConfigState next = change.next().withVersion(current.version() + 1);
            PendingChange versioned = new PendingChange(change.kind(), change.type(), change.name(), next);
            AuditEntry entry = append(AuditRecord.of(actor, current, versioned));
            state = next;
            return new ConfigChange(
                    next.version(),
                    change.kind(),
                    change.type(),
                    change.name(),
                    current.find(change.type(), change.name()),
                    next.find(change.type(), change.name()),
                    next,
                    entry.id());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public AuditEntry audit(AuditRecord record) {
        lock.lock();
        try {
            open();
            return append(record);
        } finally {
            lock.unlock();
        }
    }

    private AuditEntry append(AuditRecord r) {
        AuditEntry e = new AuditEntry(
                nextAuditId++,
                clock.instant(),
                r.actor(),
                r.action(),
                r.entityType(),
                r.entityName(),
                r.before().map(JsonTree::write),
                r.after().map(JsonTree::write));
        audit.addLast(e);
        while (audit.size() > auditCapacity) {
            audit.removeFirst();
        }
        return e;
    }

    @Override
    public void saveSequential(SequentialState s, AuditRecord record) {
        lock.lock();
        try {
            open();
            append(record);
            sequential.put(s.routing(), s);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void saveSequential(List<SequentialState> states) {
        lock.lock();
        try {
            open();
            states.forEach(s -> sequential.put(s.routing(), s));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<SequentialState> sequentialStates() {
        lock.lock();
        try {
            open();
            return List.copyOf(sequential.values());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public AuditPage auditLog(int limit, String cursor) {
        AuditPage.checkLimit(limit);
        OptionalLong before = AuditPage.decode(cursor);
        lock.lock();
        try {
            open();
            List<AuditEntry> out = new ArrayList<>(Math.min(limit, audit.size()));
            Iterator<AuditEntry> it = audit.descendingIterator();
            boolean more = false;
            while (it.hasNext()) {
                AuditEntry e = it.next();
                if (before.isPresent() && e.id() >= before.getAsLong()) {
                    continue;
                }
                if (out.size() == limit) {
                    more = true;
                    break;
                }
                out.add(e);
            }
            return new AuditPage(out, more ? AuditPage.cursorAfter(out.getLast().id()) : "");
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<StoredOperator> operators() {
        lock.lock();
        try {
            open();
            return List.copyOf(operators.values());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean createOperator(StoredOperator operator, AuditRecord record) {
        lock.lock();
        try {
            open();
            if (operators.containsKey(operator.name())) {
                return false;
            }
            append(record);
            operators.put(operator.name(), operator);
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean deleteOperator(String name, AuditRecord record) {
        lock.lock();
        try {
            open();
            if (!operators.containsKey(name)) {
                return false;
            }
            append(record);
            operators.remove(name);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The newest audit row, if any (tests). */
    Optional<AuditEntry> lastAudit() {
        lock.lock();
        try {
            return Optional.ofNullable(audit.peekLast());
        } finally {
            lock.unlock();
        }
    }

    private void open() {
        if (closed) {
            throw new IllegalStateException("config store is closed");
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
