/**
 * The immutable, versioned view of the pool that every pick reads:
 * {@link dev.proxypool.core.snapshot.PoolSnapshot} (proxies in int slots with their runtimes and
 * indices), built off the hot path by {@link dev.proxypool.core.snapshot.SnapshotBuilder} and
 * published by swapping one reference in {@link dev.proxypool.core.snapshot.LiveSnapshot}. Candidate
 * sets are memoized per filter and hold what strategies derive from them under a
 * {@link dev.proxypool.core.snapshot.DerivedKey}, so this package stays ignorant of strategies. A
 * snapshot is never mutated after it is built.
 */
package dev.proxypool.core.snapshot;
