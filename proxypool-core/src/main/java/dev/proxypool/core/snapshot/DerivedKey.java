package dev.proxypool.core.snapshot;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Names a value that a selection strategy derives once from a {@link CandidateSet} (a smooth
 * weighted schedule, a hash ring, a cursor) and keeps for the life of that set, so a pick never
 * rebuilds it. The snapshot package stays ignorant of strategies: it only stores what the key
 * computes, in a small array slot reserved for that key.
 *
 * <p>Keys are meant to be {@code static final} constants; at most {@value #MAX_KEYS} may exist in a
 * JVM. The compute function runs at most once per candidate set, under that set's lock, and must
 * not return {@code null}.
 *
 * @param <T> the derived value's type
 */
public final class DerivedKey<T> {

    /** How many keys may exist; each candidate set reserves one slot per key. */
    public static final int MAX_KEYS = 16;

    private static final AtomicInteger NEXT_INDEX = new AtomicInteger();

    private final String name;
    private final int index;
    private final Function<CandidateSet, T> compute;

    private DerivedKey(String name, int index, Function<CandidateSet, T> compute) {
        this.name = name;
        this.index = index;
        this.compute = compute;
    }

    /**
     * A new key. Call once per kind of derived value (a static constant).
     *
     * @throws IllegalStateException when more than {@value #MAX_KEYS} keys are created
     * @param <T>     the derived value's type
     * @param name    a name for messages and {@code toString()}; not null
     * @param compute derives the value from a candidate set; not null, must not return null
     * @return the key
     */
    public static <T> DerivedKey<T> of(String name, Function<CandidateSet, T> compute) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(compute, "compute");
        int index = NEXT_INDEX.getAndIncrement();
        if (index >= MAX_KEYS) {
            throw new IllegalStateException("too many derived keys (at most " + MAX_KEYS + "), creating " + name);
        }
        return new DerivedKey<>(name, index, compute);
    }

    int index() {
        return index;
    }

    T compute(CandidateSet set) {
        T value = compute.apply(set);
        if (value == null) {
            throw new IllegalStateException("derived value " + name + " computed null");
        }
        return value;
    }

    @Override
    public String toString() {
        return "DerivedKey[" + name + "]";
    }
}
