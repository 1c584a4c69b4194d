/**
 * The mutable, long-lived side of each proxy on one worker:
 * {@link dev.proxypool.core.runtime.ProxyRuntime} joins its capacity ledger and live health, and
 * {@link dev.proxypool.core.runtime.RuntimeRegistry} keeps one per proxy id across snapshot swaps, so
 * in-flight counts and cooldowns survive every rebuild. The registry is used off the hot path only
 * (snapshot builds, admin lookups); picks reach runtimes through the snapshot. Nothing here persists
 * or shares state beyond this process.
 */
package dev.proxypool.core.runtime;
