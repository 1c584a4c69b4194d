package dev.proxypool.cli;

import dev.proxypool.cli.admin.AdminCommand;
import dev.proxypool.cli.admin.OperatorsCommand;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code proxypool} command. Exit codes: 0 ok, 1 other error, 2 usage, 3 partial/insufficient.
 * Errors are one line on stderr ({@code proxypool <command>: <what went wrong>}); {@code --verbose}
 * (any position) adds the stack trace.
 */
@Command(
        name = "proxypool",
        mixinStandardHelpOptions = true,
        version = "proxypool 0.1.0-SNAPSHOT",
        description = "One operable pool over dynamic proxies: gateway, distribution API, SDK.",
        subcommands = {
            ServeCommand.class,
            DemoCommand.class,
            ExtractCommand.class,
            AcquireCommand.class,
            ReleaseCommand.class,
            ValidateCommand.class,
            ProviderCommand.class,
            EchoCommand.class,
            BenchCommand.class,
            CapacityCommand.class,
            HashSecretCommand.class,
            ExampleCommand.class,
            AdminCommand.class,
            OperatorsCommand.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:ok",
            "1:error (unreachable server, unreadable file, ...)",
            "2:usage (bad options)",
            "3:partial or insufficient result"
        })
public final class Main implements Callable<Integer> {

    public static final int EXIT_OK = 0;
    public static final int EXIT_ERROR = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_PARTIAL = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--verbose",
            scope = ScopeType.INHERIT,
            description = "On errors, print the stack trace too (default: one line).")
    boolean verbose;

    /** No command given: a usage error (exit 2), the usage on stderr; {@code --help} prints it on stdout with 0. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        spec.commandLine().getErr().flush();
        return EXIT_USAGE;
    }

    /** A command line configured with the project's exit codes and error style; tests execute it in-process. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.getCommandSpec().exitCodeOnInvalidInput(EXIT_USAGE);
        cl.getCommandSpec().exitCodeOnExecutionException(EXIT_ERROR);
        cl.setParameterExceptionHandler(Main::usageError);
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) ->
                CliErrors.fail(commandLine.getCommandSpec(), EXIT_ERROR, CliErrors.oneLine(ex), ex));
        return cl;
    }

    /** A usage error: one line naming the problem and where help is, instead of the whole usage text. */
    private static int usageError(CommandLine.ParameterException ex, String[] args) {
        CommandLine cl = ex.getCommandLine();
        PrintWriter err = cl.getErr();
        String name = cl.getCommandSpec().qualifiedName();
        err.println(name + ": " + CliErrors.firstLine(ex.getMessage()) + " (see '" + name + " --help')");
        if (CliErrors.verbose(cl.getCommandSpec())) {
            ex.printStackTrace(err);
        }
        err.flush();
        return EXIT_USAGE;
    }

    public static void main(String[] args) {
        preferPlatformPollers();
        System.exit(commandLine().execute(args));
    }

    /**
     * The JDK's socket readiness for virtual threads: on JDK 21–25 (Linux) its default hands every
     * ready descriptor from a platform "master" poller to a virtual poller thread and from there to
     * the waiting virtual thread, two carrier wake-ups per readiness. Platform poller threads
     * ({@code jdk.pollerMode=1}) unpark the waiting thread directly: fewer futex calls per request for
     * what still runs on virtual threads (the REST listener, the validator's dials; the gateway's data
     * plane is on its event loops). Measured when the gateway still ran on virtual threads: two thirds
     * of the futex calls per tunnel fewer (benchmarks/gateway/README.md). Applied only when the operator set no
     * mode ({@code -Djdk.pollerMode=2} restores the JDK's default) and only on the JDK versions whose
     * meaning of the property is known; it must run before the first virtual-thread socket operation.
     */
    static void preferPlatformPollers() {
        int feature = Runtime.version().feature();
        if (System.getProperty("jdk.pollerMode") == null && feature >= 21 && feature <= 25) {
            System.setProperty("jdk.pollerMode", "1");
        }
    }
}
