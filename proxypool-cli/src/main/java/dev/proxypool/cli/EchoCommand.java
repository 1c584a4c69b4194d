package dev.proxypool.cli;

import dev.proxypool.sdk.validate.EchoServer;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "echo",
        mixinStandardHelpOptions = true,
        description = {
            "Run the standalone echo endpoint (GET /v1/echo) until Ctrl-C.",
            "It answers {\"ip\": <peer address>, \"headers\": {...}}. The validator requests it",
            "through each candidate proxy and judges the address and headers that",
            "arrive. Bind it where the proxies can reach it, and reach it directly,",
            "not through a reverse proxy (it reports the TCP peer)."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool echo --port 9091",
            "  proxypool echo --port 9091 --bind 0.0.0.0     # reachable by remote proxies",
            "  proxypool validate proxies.txt --echo-url http://<this host>:9091/v1/echo"
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped", "1:cannot bind", "2:usage (bad options)"})
final class EchoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--port", required = true, paramLabel = "N", description = "Port to listen on (0 = any free port).")
    int port;

    @Option(
            names = "--bind",
            paramLabel = "ADDRESS",
            defaultValue = "127.0.0.1",
            description = "Address to listen on (default ${DEFAULT-VALUE}; 0.0.0.0 for every interface).")
    String bind;

    @Override
    public Integer call() {
        EchoServer.Builder builder;
        try {
            builder = EchoServer.builder().port(port).bind(address(bind));
        } catch (IllegalArgumentException e) {
            return CliErrors.fail(spec, Main.EXIT_USAGE, e.getMessage().replace("echo port", "--port"), e);
        }
        EchoServer server;
        try {
            server = builder.start();
        } catch (UncheckedIOException e) {
            return CliErrors.fail(
                    spec, Main.EXIT_ERROR, e.getMessage() + " (" + CliErrors.oneLine(e.getCause()) + ")", e);
        }
        try (server) {
            spec.commandLine().getOut().println("proxypool echo: serving " + server.url() + " (Ctrl-C to stop)");
            spec.commandLine().getOut().flush();
            awaitStop();
        }
        return Main.EXIT_OK;
    }

    /** Blocks until the JVM is asked to stop, or this thread is interrupted (in-process callers). */
    private static void awaitStop() {
        CountDownLatch stop = new CountDownLatch(1);
        Thread hook = new Thread(stop::countDown, "proxypool-echo-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
    }

    private static InetAddress address(String s) {
        try {
            return InetAddress.getByName(s.strip());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--bind: '" + s + "' is not an address of this machine");
        }
    }
}
