/**
 * Small runnable programs showing the public API the way an application uses it: embedding the
 * pool, the JDK {@code HttpClient} with sticky sessions, a custom provider adapter, and remote
 * extraction from a running server. Each is self-contained (runnable with
 * {@code proxypool example NAME}) and uses only the public SDK surface, as an application would:
 * {@code dev.proxypool.sdk}, {@code dev.proxypool.sdk.remote}, the provider SPI
 * {@code dev.proxypool.sdk.provider}, the value types of {@code dev.proxypool.core.model} and the
 * JDK ({@code PublicSurfaceOnlyTest} fails on anything else). Examples must not depend on the
 * server's or the test kit's classes, nor need anything beyond loopback.
 */
package dev.proxypool.examples;
