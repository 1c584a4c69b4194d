package dev.proxypool.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = {
            "Load the gateway or the Distribution API; print req/s, P50/P95/P99, errors.",
            "N connections run closed loops on virtual threads for a bounded time."
        },
        subcommands = {BenchGatewayCommand.class, BenchExtractionCommand.class, BenchCapacityCommand.class},
        footer = {
            "",
            "Examples:",
            "  proxypool bench gateway --url http://127.0.0.1:8081/ --connections 50",
            "  proxypool bench extraction --api http://127.0.0.1:9090 --connections 8"
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the run finished and at least one request succeeded",
            "1:no request succeeded, or an error",
            "2:usage (bad options, or no subcommand)"
        })
final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return CliErrors.fail(
                spec,
                Main.EXIT_USAGE,
                "choose what to drive: 'proxypool bench gateway' or"
                        + " 'proxypool bench extraction' (see 'proxypool bench --help')",
                null);
    }
}
