package dev.proxypool.cli;

import dev.proxypool.sdk.cluster.ClusterRole;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.server.ProxyPoolServer;
import java.net.BindException;
import java.nio.file.Path;
import java.util.logging.Filter;
import java.util.logging.Logger;

/** Starts the server the way {@code serve} and {@code demo} both do. */
final class ServerFactory {

    /**
     * Helidon logs a listener that cannot bind as SEVERE with the whole ~50-line trace before the
     * start fails; the command then prints one line naming the port and how to choose another
     * ({@link StartFailure}). The trace says nothing more, so that one record is dropped; any other
     * failure to start is still logged. Held here: JUL keeps loggers (and their filters) weakly.
     */
    private static final Logger HELIDON_SERVER = Logger.getLogger("io.helidon.webserver.LoomServer");

    static {
        Filter previous = HELIDON_SERVER.getFilter();
        HELIDON_SERVER.setFilter(r -> !portInUse(r.getThrown()) && (previous == null || previous.isLoggable(r)));
    }

    private ServerFactory() {}

    private static boolean portInUse(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof BindException) {
                return true;
            }
        }
        return false;
    }

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
