/**
 * Exclusive extraction: the {@link dev.proxypool.core.extract.PoolStore} contract (available and
 * disabled proxies, tombstones of extracted ones, idempotency records), its value types, and
 * {@link dev.proxypool.core.extract.MemoryPoolStore}, the embedded implementation whose behaviour
 * every other store (Redis) must match. A proxy handed out by an extraction leaves the pool and is
 * never handed out twice. Nothing here talks to a network or knows about credentials: the server
 * builds URLs from the credential store.
 */
package dev.proxypool.core.extract;
