package dev.proxypool.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/** How commands report failure: one line on stderr, the stack trace only with {@code --verbose}. */
final class CliErrors {

    private CliErrors() {}

    /**
     * Prints {@code <qualified command name>: message} on the command's stderr (plus the stack trace
     * of {@code cause} when {@code --verbose} was given) and returns {@code exit}.
     */
    static int fail(CommandSpec spec, int exit, String message, Throwable cause) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(spec.qualifiedName() + ": " + message);
        if (cause != null && verbose(spec)) {
            cause.printStackTrace(err);
        }
        err.flush();
        return exit;
    }

    /** Whether {@code --verbose} appeared anywhere on the command line. */
    static boolean verbose(CommandSpec spec) {
        CommandSpec root = spec;
        while (root.parent() != null) {
            root = root.parent();
        }
        for (ParseResult p = root.commandLine().getParseResult(); p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }

    /** The exception's message, first line only, or its type when it has none. */
    static String oneLine(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : firstLine(m);
    }

    static String firstLine(String m) {
        if (m == null) {
            return "";
        }
        int nl = m.indexOf('\n');
        return (nl < 0 ? m : m.substring(0, nl)).strip();
    }
}
