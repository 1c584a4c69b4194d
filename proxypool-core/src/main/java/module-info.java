/**
 * ProxyPool's domain: proxies, labels, routing rules, health outcomes, sticky and sequential
 * policies, extraction requests and results. Pure Java, no dependencies.
 *
 * <p>Exported: the packages whose types appear in the SDK's public signatures. Not exported: the
 * engine's internals (capacity accounting, ranking, runtime state, security and operations
 * helpers) are exported to {@code dev.proxypool.sdk} only; the server and the CLI use them from the
 * class path, where module exports are not enforced.
 */
@SuppressWarnings("module") // the qualified exports name dev.proxypool.sdk, compiled after this module
module dev.proxypool.core {
    exports dev.proxypool.core.model;
    exports dev.proxypool.core.health;
    exports dev.proxypool.core.routing;
    exports dev.proxypool.core.sticky;
    exports dev.proxypool.core.sequential;
    exports dev.proxypool.core.extract;
    exports dev.proxypool.core.snapshot;
    exports dev.proxypool.core.time;
    exports dev.proxypool.core.dispatch;
    exports dev.proxypool.core.wire to
            dev.proxypool.sdk,
            dev.proxypool.server,
            dev.proxypool.cli;

    // The engine's internals: for the SDK's implementation only.
    exports dev.proxypool.core.capacity to
            dev.proxypool.sdk;
    exports dev.proxypool.core.rank to
            dev.proxypool.sdk;
    exports dev.proxypool.core.runtime to
            dev.proxypool.sdk;
    exports dev.proxypool.core.security to
            dev.proxypool.sdk;
    exports dev.proxypool.core.ops to
            dev.proxypool.sdk;
    exports dev.proxypool.core.nodes to
            dev.proxypool.sdk;
    exports dev.proxypool.core.task to
            dev.proxypool.sdk;
}
