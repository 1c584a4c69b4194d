/**
 * Leader leases per pipeline stage ({@link dev.proxypool.sdk.lock.StageLock}), so that when the pool
 * is scaled out only one process writes a stage's output: within one process
 * ({@link dev.proxypool.sdk.lock.LocalStageLock}, on an injected ticker) or across processes on the
 * shared Redis ({@link dev.proxypool.sdk.lock.RedisStageLock}). A lease expires unless renewed, and
 * only its holder can renew or release it. It must not run the stages itself.
 */
package dev.proxypool.sdk.lock;
