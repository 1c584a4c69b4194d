package dev.proxypool.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Drive a load against the gateway or the Distribution API and print req/s,",
                "P50/P95/P99 latency and errors by kind. N connections run closed loops on virtual threads."},
        subcommands = {BenchGatewayCommand.class, BenchExtractionCommand.class},
        footer = {"", "Examples:",
                "  proxypool bench gateway --proxy http://127.0.0.1:8080 --url http://127.0.0.1:8081/ --connections 50 --duration 10s",
                "  proxypool bench extraction --api http://127.0.0.1:9090 --token $PROXYPOOL_TOKEN --connections 8"},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the run finished and at least one request succeeded", "1:no request succeeded, or an error",
                "2:usage (bad options, or no subcommand)"})
final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return CliErrors.fail(spec, Main.EXIT_USAGE, "choose what to drive: gateway or extraction", null);
    }
}
