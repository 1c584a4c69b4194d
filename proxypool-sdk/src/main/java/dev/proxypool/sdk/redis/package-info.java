/**
 * The one Redis access layer of the SDK: {@link dev.proxypool.sdk.redis.RedisAccess} runs commands
 * and Lua scripts and classifies every failure once ({@link dev.proxypool.sdk.redis.RedisFailure}:
 * unavailable or refused), and {@link dev.proxypool.sdk.redis.RedisPoolStore} implements the pool
 * store on it, each state change one script so the store's rules hold across processes. Key names
 * live in {@link dev.proxypool.sdk.redis.RedisKeys} and the scripts and must agree. Nothing here stores
 * a secret: proxies carry credential references only.
 */
package dev.proxypool.sdk.redis;
