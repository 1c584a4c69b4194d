package dev.proxypool.cli;

import dev.proxypool.sdk.cluster.ClusterRole;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.server.ProxyPoolServer;
import java.nio.file.Path;

/** Starts the server the way {@code serve} and {@code demo} both do. */
final class ServerFactory {

    private ServerFactory() {}

    static ProxyPoolServer start(ProxyPoolConfig config, Path configDir) {
        return start(config, ClusterRole.ALL, configDir);
    }

    static ProxyPoolServer start(ProxyPoolConfig config, ClusterRole role, Path configDir) {
        return start(config, role, configDir, false);
    }

    /** {@code importConfig}: overwrite the configuration database with the file's entities ({@code serve --import-config}). */
    static ProxyPoolServer start(ProxyPoolConfig config, ClusterRole role, Path configDir, boolean importConfig) {
        return ProxyPoolServer.builder(config)
                .role(role)
                .configDir(configDir)
                .importConfig(importConfig)
                .start();
    }
}
