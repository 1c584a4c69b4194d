/**
 * Runnable examples of the SDK and the distribution API's client. A named module that requires
 * only {@code dev.proxypool.sdk}: the compiler proves the examples use the exported surface and
 * nothing of the engine's internals.
 */
module dev.proxypool.examples {
    requires dev.proxypool.sdk;
}
