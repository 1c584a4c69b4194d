/**
 * The stored form of client secrets ({@link dev.proxypool.core.security.SecretHash}): salted
 * PBKDF2-HMAC-SHA256, verified in constant time. JDK cryptography only. Nothing here logs, caches in
 * plain text or returns a secret: callers keep only the hash.
 */
package dev.proxypool.core.security;
