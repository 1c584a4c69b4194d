/**
 * Harness-only gateway entry points for {@code benchmarks/gateway/run.sh}: the bare wire layer over
 * a static upstream engine ({@code --listeners own}) and the same protocol behind a Helidon
 * listener ({@code --listeners helidon}), measured as extra rows beside the real
 * {@code proxypool serve}. Not product code.
 */
package dev.proxypool.benchmarks.gateway;
