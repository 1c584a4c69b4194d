/**
 * Validation of candidate proxies (docs/design.md#collection-pipeline, P6): {@link dev.proxypool.sdk.validate.Validator}
 * sends a real request through each candidate to the project's own echo endpoint
 * ({@link dev.proxypool.sdk.validate.EchoServer}, {@code GET /v1/echo}) and judges the exit address
 * and headers that arrive: elite, anonymous, or rejected with a reason code. Bounded concurrency and
 * memory for any number of candidates, a hard deadline per candidate.
 * {@link dev.proxypool.sdk.validate.ProxiedExchange} is the shared "one GET through a proxy under a
 * deadline" step, also used by the active prober. JDK only; blocking I/O on virtual threads.
 */
package dev.proxypool.sdk.validate;
