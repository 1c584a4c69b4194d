/**
 * Small runnable programs showing the public API the way an application uses it: embedding the
 * pool, the JDK {@code HttpClient} with sticky sessions, a custom provider adapter, and remote
 * extraction from a running server. Each is self-contained (runnable with
 * {@code proxypool example NAME}) and uses only the core model and the SDK, as an application
 * would: examples must not depend on the server's or the test kit's classes, nor need anything
 * beyond loopback.
 */
package dev.proxypool.examples;
