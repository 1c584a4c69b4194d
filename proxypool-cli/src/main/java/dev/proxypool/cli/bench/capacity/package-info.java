/**
 * {@code proxypool bench capacity}: an open-loop, stepped-rate load of a production-like traffic
 * mix ({@link dev.proxypool.cli.bench.capacity.TrafficProfile}) through the gateway to simulated
 * upstream proxies ({@link dev.proxypool.cli.bench.capacity.SimUpstream}) with a round-trip
 * distribution and failures, judged per step against an SLO at P99
 * ({@link dev.proxypool.cli.bench.capacity.CapacityRun}); its result is {@code measured_worker_qps}.
 */
package dev.proxypool.cli.bench.capacity;
