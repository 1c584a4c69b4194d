package dev.proxypool.cli;

import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.coordination.ServeRole;
import dev.proxypool.server.ProxyPoolServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;

/** Starts the server the way {@code serve} and {@code demo} both do. */
final class ServerFactory {

    private ServerFactory() {}

    static ProxyPoolServer start(ProxyPoolConfig config, Path configDir) {
        return start(config, ServeRole.ALL, configDir);
    }

    static ProxyPoolServer start(ProxyPoolConfig config, ServeRole role, Path configDir) {
        return start(config, role, configDir, false);
    }

    /** {@code importConfig}: overwrite the configuration database with the file's entities ({@code serve --import-config}). */
    static ProxyPoolServer start(ProxyPoolConfig config, ServeRole role, Path configDir, boolean importConfig) {
        requireFree(config.server().host(), config.server().apiPort());
        return ProxyPoolServer.builder(config)
                .role(role)
                .configDir(configDir)
                .importConfig(importConfig)
                .start();
    }

    /**
     * Fails with a {@link BindException} cause when the API port is taken, before anything starts.
     * Helidon would log a listener that cannot bind as SEVERE with a ~50-line trace before the start
     * fails; the command prints one line naming the port and how to choose another instead
     * ({@link StartFailure}). Any other trouble is left to the server's own start.
     */
    private static void requireFree(String host, int port) {
        if (port <= 0) {
            return;
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(InetAddress.getByName(host), port));
        } catch (BindException e) {
            throw new UncheckedIOException("API port " + port + " is already in use", e);
        } catch (IOException e) {
            // not about the port being taken: the server's start reports it
        }
    }
}
