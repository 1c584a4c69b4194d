/**
 * Snapshot distribution costs for large pools
 * ({@link dev.proxypool.benchmarks.cluster.ClusterSnapshotBenchmark}): snapshot builds, digests,
 * encoding and decoding (plain and deflated), and publishing through Redis to a worker, over a
 * deterministic {@link dev.proxypool.benchmarks.cluster.ClusterPool}. It needs a running Redis and
 * works under a key prefix of its own; it must not touch keys it did not create.
 */
package dev.proxypool.benchmarks.cluster;
