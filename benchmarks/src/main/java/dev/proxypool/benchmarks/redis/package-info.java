/**
 * Extraction throughput and latency of the Redis pool store against a running Redis
 * ({@link dev.proxypool.benchmarks.redis.RedisExtractionBenchmark}), over a deterministic
 * {@link dev.proxypool.benchmarks.redis.RedisBenchPool}, with percentiles from merged per-thread
 * {@link dev.proxypool.benchmarks.redis.Latencies}. It works under a key prefix of its own and must
 * not touch keys it did not create.
 */
package dev.proxypool.benchmarks.redis;
