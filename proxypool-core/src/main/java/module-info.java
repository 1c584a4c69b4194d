/**
 * ProxyPool's domain: proxies, labels, routing rules, health outcomes, sticky and sequential
 * policies, extraction requests and results. Pure Java, no dependencies.
 *
 * <p>Exported: the packages whose types appear in the SDK's public signatures. The engine's
 * internals (capacity accounting, ranking, runtime state, limits, security and operations helpers,
 * node registry rules, background tasks) are exported to the SDK, the server and the CLI only,
 * each to the modules that use it.
 */
@SuppressWarnings("module") // the qualified exports name modules compiled after this one
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

    // The engine's internals: for the SDK's implementation, the server and the CLI only.
    exports dev.proxypool.core.capacity to
            dev.proxypool.sdk,
            dev.proxypool.server;
    exports dev.proxypool.core.rank to
            dev.proxypool.sdk;
    exports dev.proxypool.core.runtime to
            dev.proxypool.sdk,
            dev.proxypool.server;
    exports dev.proxypool.core.security to
            dev.proxypool.sdk,
            dev.proxypool.server,
            dev.proxypool.cli;
    exports dev.proxypool.core.ops to
            dev.proxypool.sdk,
            dev.proxypool.server,
            dev.proxypool.cli;
    exports dev.proxypool.core.nodes to
            dev.proxypool.sdk,
            dev.proxypool.server;
    exports dev.proxypool.core.task to
            dev.proxypool.sdk,
            dev.proxypool.server,
            dev.proxypool.cli;
    exports dev.proxypool.core.limits to
            dev.proxypool.server;
}
