/**
 * The {@code proxypool serve} process's entry points: {@link dev.proxypool.server.ProxyPoolServer}
 * assembles the SDK's pool with the gateway listener and the Helidon REST listener
 * ({@link dev.proxypool.server.GatewayServer}), and {@link dev.proxypool.server.NoReverseLookup} is
 * the process's name resolver. The rest lives in subpackages: the roles a process takes
 * ({@code assembly}), what makes it ready ({@code readiness}), the REST listener's defences
 * ({@code listener}), the gateway ({@code gateway}, {@code upstream}, {@code access}), the APIs,
 * persistence, metrics and TLS. This package is exported to the CLI, which starts the server.
 */
package dev.proxypool.server;
