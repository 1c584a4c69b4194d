/**
 * {@code proxypool admin ...}: a client of a running server's admin API ({@code /v1/admin}) over the
 * JDK HTTP client, one command per resource (routings, upstreams, providers, clients, proxies,
 * sequential, snapshot, audit, fetch), sharing {@code --api}, {@code --token} and {@code --timeout}.
 * Each failure becomes an {@link dev.proxypool.cli.admin.AdminFailure} with its exit code. It talks
 * to the server only through the HTTP API: it must not open the configuration store or Redis itself,
 * and it never prints the token.
 */
package dev.proxypool.cli.admin;
