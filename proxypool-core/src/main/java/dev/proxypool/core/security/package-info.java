/**
 * The gateway's security rules, pure and without I/O. Mostly where traffic may go: the SSRF
 * defence ({@link dev.proxypool.core.security.DestinationPolicy} over
 * {@link dev.proxypool.core.security.AddressClass}es and {@link dev.proxypool.core.security.AllowList}s,
 * judging a destination to a {@link dev.proxypool.core.security.DestinationVerdict}, the process's own
 * listeners included ({@link dev.proxypool.core.security.OwnListeners})); and the stored form of
 * client secrets ({@link dev.proxypool.core.security.SecretHash}: salted PBKDF2-HMAC-SHA256, verified
 * in constant time, JDK cryptography only). Nothing here logs, caches in plain text or returns a
 * secret: callers keep only the hash.
 */
package dev.proxypool.core.security;
