/**
 * Self-hosted proxy nodes (the ProxyNode "agents", docs/design.md#security X11). An operator issues a
 * registration token; a node exchanges it at {@code POST /v1/nodes} for a short-lived credential,
 * heartbeats with it, and is a member of the pool (upstream {@code nodes}) while its heartbeats
 * arrive in time by the control plane's own clock. Revoking the token removes its nodes from the
 * next snapshot at once. {@link dev.proxypool.server.nodes.NodeRegistry} holds the rules,
 * {@link dev.proxypool.server.nodes.NodeService} the REST surface. Tokens and nodes are kept in a
 * {@link dev.proxypool.server.nodes.NodeStore}: PostgreSQL when the server has a configuration
 * database (they survive a restart), memory otherwise.
 */
package dev.proxypool.server.nodes;
