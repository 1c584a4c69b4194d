package dev.proxypool.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code proxypool} command. Exit codes: 0 ok, 1 other error, 2 usage, 3 partial/insufficient. */
@Command(name = "proxypool", mixinStandardHelpOptions = true, version = "proxypool 0.1.0-SNAPSHOT",
        description = "One operable pool over dynamic proxies: gateway, distribution API, SDK.",
        subcommands = {ServeCommand.class, DemoCommand.class, CapacityCommand.class, HashSecretCommand.class})
public final class Main implements Runnable {

    public static final int EXIT_OK = 0;
    public static final int EXIT_ERROR = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_PARTIAL = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** A command line configured with the project's exit codes; tests execute it in-process. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.getCommandSpec().exitCodeOnInvalidInput(EXIT_USAGE);
        cl.getCommandSpec().exitCodeOnExecutionException(EXIT_ERROR);
        return cl;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
