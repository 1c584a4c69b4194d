package dev.proxypool.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code proxypool provider ...}: try a configured provider without a server. */
@Command(
        name = "provider",
        mixinStandardHelpOptions = true,
        synopsisSubcommandLabel = "COMMAND",
        description = "Try a configured provider without a server.",
        subcommands = {ProviderTestCommand.class})
final class ProviderCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
