/**
 * JMH benchmarks of the core hot paths: dispatch per strategy (alone and contended), the capacity
 * ledger, and snapshot builds (steady state and cold), over a deterministic synthetic
 * {@link dev.proxypool.benchmarks.BenchPool}. Results are measurements for people and for regression
 * checks; nothing in the product depends on this package, and it must not weaken what it measures
 * (same code paths as production, no shortcuts).
 */
package dev.proxypool.benchmarks;
