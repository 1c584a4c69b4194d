/**
 * The pool's meters in the Helidon (Micrometer) registry served at {@code /observe/metrics}: pool
 * census by upstream and state, pipeline fetches, health transitions. Every meter is
 * low-cardinality (by upstream, state, outcome or reason), never by proxy id, client or target host,
 * and carries no secret. This package only observes: it must not change the pool.
 */
package dev.proxypool.server.metrics;
