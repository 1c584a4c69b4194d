/**
 * Time for everything else: the monotonic {@link dev.proxypool.core.time.Ticker} for durations and
 * deadlines, the production clocks in {@link dev.proxypool.core.time.Clocks} and the
 * {@link dev.proxypool.core.time.ManualClock} that tests advance by hand. This is the only package
 * that reads the system time; other code gets a ticker or an {@link java.time.InstantSource} injected.
 */
package dev.proxypool.core.time;
