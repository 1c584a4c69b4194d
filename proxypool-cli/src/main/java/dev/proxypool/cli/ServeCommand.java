package dev.proxypool.cli;

import dev.proxypool.sdk.config.ConfigException;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.coordination.ServeRole;
import dev.proxypool.server.ProxyPoolServer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = {
            "Run the gateway (default :8080) and the REST listener (default :9090).",
            "Without --config it starts on the embedded defaults: in-memory store, no external service,",
            "listening on 127.0.0.1. PROXYPOOL_<KEY> environment variables override config scalars."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool serve",
            "  proxypool serve --config proxypool.yaml",
            "  PROXYPOOL_SERVER_GATEWAYPORT=18080 proxypool serve",
            "  proxypool serve --config cluster.yaml --role worker"
        })
final class ServeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "proxypool.yaml (default: embedded defaults)")
    Path config;

    @Option(
            names = "--role",
            paramLabel = "ROLE",
            defaultValue = "all",
            description = {
                "all (default), control (pipeline, admin, snapshot publishing) or worker (gateway and",
                "extraction from the control plane's snapshots). control and worker need store.type: redis."
            })
    String role;

    @Option(
            names = "--import-config",
            description = {
                "With database.type: postgres, overwrite the database's providers,",
                "upstreams, routings and clients with the config file's (audited config.import). Without it the file",
                "only seeds an empty database and afterwards the database is in force."
            })
    boolean importConfig;

    @Override
    public Integer call() throws InterruptedException {
        ProxyPoolConfig cfg;
        try {
            cfg = config == null ? ConfigLoader.defaults(System.getenv()) : ConfigLoader.load(config);
        } catch (ConfigException e) {
            spec.commandLine().getErr().println("proxypool serve: bad config: " + e.getMessage());
            return Main.EXIT_USAGE;
        }
        ServeRole clusterRole;
        try {
            clusterRole = ServeRole.parse(role);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("proxypool serve: " + e.getMessage());
            return Main.EXIT_USAGE;
        }
        ProxyPoolServer server;
        try {
            server = ServerFactory.start(
                    cfg,
                    clusterRole,
                    config == null
                            ? Path.of("").toAbsolutePath()
                            : config.toAbsolutePath().getParent(),
                    importConfig);
        } catch (ConfigException e) {
            spec.commandLine().getErr().println("proxypool serve: bad config: " + e.getMessage());
            return Main.EXIT_USAGE;
        } catch (RuntimeException e) {
            spec.commandLine()
                    .getErr()
                    .println("proxypool serve: cannot start: "
                            + StartFailure.explain(
                                    e,
                                    cfg.server().host(),
                                    cfg.server().gatewayPort(),
                                    cfg.server().apiPort(),
                                    StartFailure.PortNames.CONFIG_KEYS));
            return Main.EXIT_ERROR;
        }
        spec.commandLine()
                .getOut()
                .printf(
                        "proxypool: gateway on %s:%d%s, API on %s:%d%s (Ctrl-C to stop)%n",
                        cfg.server().host(),
                        server.gatewayPort(),
                        cfg.server().gatewayTls().isPresent() ? " (TLS)" : "",
                        cfg.server().host(),
                        server.apiPort(),
                        cfg.server().apiTls().isPresent() ? " (TLS)" : "");
        spec.commandLine().getOut().flush();
        awaitShutdown(server);
        return Main.EXIT_OK;
    }

    /** Blocks until the JVM is asked to stop, then stops the server in order. */
    static void awaitShutdown(AutoCloseable server) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                server.close();
                            } catch (Exception ignored) {
                                // stopping anyway
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "proxypool-shutdown"));
        stopped.await();
    }
}
