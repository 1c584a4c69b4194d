/**
 * The roles a {@code proxypool serve} process takes ({@code --role control|worker|all}): each
 * {@link dev.proxypool.server.assembly.RoleAssembly} builds and closes what its role runs (the
 * control plane's collection and snapshot publishing, a worker's snapshot subscription); also the
 * shared configuration's poller and the sequential routings' persistence.
 */
package dev.proxypool.server.assembly;
