/**
 * What makes a process ready to serve ({@code /observe/health/ready}): the pool's first collection,
 * the store's reachability and durability, and routings with candidates
 * ({@link dev.proxypool.server.readiness.Readiness} and its checks).
 */
package dev.proxypool.server.readiness;
