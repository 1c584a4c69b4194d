/**
 * How the processes of one deployment coordinate through Redis (a single node or, hash-tagged into
 * one slot, a Redis Cluster; unrelated to the Redis Cluster pool store of {@code sdk.redis}): snapshot
 * distribution between the control plane and gateway workers
 * (docs/design.md#snapshots-and-distribution), the control plane's leadership and the worker registry.
 *
 * <p>The control plane publishes versioned pool content through Redis
 * ({@link dev.proxypool.sdk.coordination.SnapshotPublisher}): a delta per version in a stream, the full
 * content in a hash, an event on a channel, all in one atomic script. Each worker follows it
 * ({@link dev.proxypool.sdk.coordination.SnapshotSubscriber}), applying deltas strictly in order,
 * checking each against a content digest, resyncing from the full snapshot on any gap, and never
 * dropping its last complete snapshot while Redis or the control plane is down. The wire format is
 * {@link dev.proxypool.sdk.coordination.SnapshotCodec}; frames carry proxies with their
 * {@code credentialRef} only, never secrets or runtime state. Workers count each other through
 * {@link dev.proxypool.sdk.coordination.WorkerRegistry} heartbeats so each takes its share of every
 * proxy's concurrency ({@link dev.proxypool.sdk.coordination.WorkerShare}).
 *
 * <p>The roles assembled: {@link dev.proxypool.sdk.coordination.ControlRole} (publish whenever the
 * control plane's engine builds a new snapshot) and {@link dev.proxypool.sdk.coordination.WorkerRole}
 * (every version rebuilds the worker's engine); {@link dev.proxypool.sdk.coordination.ServeRole} is the
 * {@code --role control|worker|all} switch. Several control planes may share the keys: the holder
 * of the {@link dev.proxypool.sdk.coordination.ControlLeadership} publishes under its fencing token, the others
 * stand by and take over when it stops ({@link dev.proxypool.sdk.coordination.ControlRole#startLeased}).
 * {@link dev.proxypool.sdk.coordination.CoordinationRedis} puts all of it on one Redis node or, hash-tagged into
 * one slot, on a Redis Cluster. Operations: {@code docs/runbook.md}; costs:
 * {@code benchmarks/cluster/RESULTS-cluster.md}.
 */
package dev.proxypool.sdk.coordination;
