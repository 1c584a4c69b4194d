package dev.proxypool.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start the server with local test proxies and a local origin to try with curl.")
final class DemoCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("proxypool demo: the demo needs the gateway, which is not built yet "
                + "(the core engine is; see the README's status section).");
        return Main.EXIT_ERROR;
    }
}
