/**
 * Validation throughput and memory of the collection pipeline
 * ({@link dev.proxypool.benchmarks.pipeline.ValidationBenchmark}) against a loopback
 * {@link dev.proxypool.benchmarks.pipeline.FakeFleet} of test-kit proxies of every behaviour, with
 * the heap sampled by {@link dev.proxypool.benchmarks.pipeline.HeapWatch}. Loopback only: it must not
 * reach a real proxy or the internet.
 */
package dev.proxypool.benchmarks.pipeline;
