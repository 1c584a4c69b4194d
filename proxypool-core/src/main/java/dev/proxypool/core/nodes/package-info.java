/**
 * Self-hosted proxy nodes as product rules on the control plane's clock: liveness, heartbeat
 * acceptance, address claims and reconciling the pool with the live nodes
 * ({@link dev.proxypool.core.nodes.NodeMembership}), and the node timings
 * ({@link dev.proxypool.core.nodes.NodeSettings}). The server's node registry only translates HTTP
 * and storage into these decisions.
 */
package dev.proxypool.core.nodes;
