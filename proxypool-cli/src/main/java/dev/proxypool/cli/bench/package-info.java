/**
 * The load generator behind {@code proxypool bench}: {@link dev.proxypool.cli.bench.LoadRun} drives
 * virtual-thread workers in a closed loop for a fixed time, keep-alive
 * {@link dev.proxypool.cli.bench.GatewayClient}s speak just enough HTTP/1.1, and a small log-linear
 * {@link dev.proxypool.cli.bench.LatencyHistogram} collects latencies into a
 * {@link dev.proxypool.cli.bench.BenchResult}. Built for low overhead on the measuring side; it is a
 * client only and must not start servers or touch the pool.
 */
package dev.proxypool.cli.bench;
