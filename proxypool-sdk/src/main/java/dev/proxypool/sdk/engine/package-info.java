/**
 * The core engine assembled for one worker: {@link dev.proxypool.sdk.engine.PoolEngine} joins the
 * routing table, the live snapshot built from the pool store, the dispatcher, sticky tables, the
 * sequential board and the per-proxy runtimes, and hands out a {@link dev.proxypool.sdk.Lease}
 * per {@link dev.proxypool.sdk.engine.AcquireRequest}. A lease holds one unit of capacity until it is
 * closed and takes exactly one outcome report. The engine does no network I/O itself: dialing,
 * fetching and publishing belong to their own packages.
 */
package dev.proxypool.sdk.engine;
