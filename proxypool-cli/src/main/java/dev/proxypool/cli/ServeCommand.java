package dev.proxypool.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run the gateway (default :8080) and REST listener (default :9090).")
final class ServeCommand implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "proxypool.yaml (default: embedded defaults)")
    Path config;

    @Override
    public Integer call() {
        System.err.println("proxypool serve: the gateway and REST server are not built yet "
                + "(the core engine is; see the README's status section).");
        return Main.EXIT_ERROR;
    }
}
