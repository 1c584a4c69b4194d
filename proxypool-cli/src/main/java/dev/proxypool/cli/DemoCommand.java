package dev.proxypool.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Start the server with local test proxies and a local origin, all on 127.0.0.1, and print curl lines to try.",
            "The gateway uses three proxies (HTTP, HTTP with auth, SOCKS5); the Distribution API has its own",
            "inventory of session proxies, since extraction is permanent. Nothing leaves the machine;",
            "Ctrl-C stops everything and deletes the demo's temporary directory."
        },
        footer = {"", "Examples:", "  proxypool demo", "  proxypool demo --gateway-port 18080 --api-port 19090"})
final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--gateway-port", defaultValue = "8080", description = "Gateway port (default ${DEFAULT-VALUE}).")
    int gatewayPort;

    @Option(names = "--api-port", defaultValue = "9090", description = "REST port (default ${DEFAULT-VALUE}).")
    int apiPort;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Demo demo;
        try {
            demo = Demo.start(gatewayPort, apiPort);
        } catch (RuntimeException e) {
            spec.commandLine()
                    .getErr()
                    .println("proxypool demo: cannot start: " + StartFailure.explain(e, gatewayPort, apiPort));
            return Main.EXIT_ERROR;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(demo.banner());
        out.flush();
        ServeCommand.awaitShutdown(demo);
        return Main.EXIT_OK;
    }
}
