/**
 * Per-client limits, as product rules with injected time: the gateway's request rate
 * ({@link dev.proxypool.core.limits.RateLimiter}, a token bucket) and the extraction API's hourly
 * quota ({@link dev.proxypool.core.limits.QuotaLedger}, a sliding window). The server only
 * translates their answers into 429 responses.
 */
package dev.proxypool.core.limits;
