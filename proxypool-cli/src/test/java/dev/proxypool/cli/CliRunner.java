package dev.proxypool.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs {@code proxypool} in-process with captured stdout and stderr. */
final class CliRunner {

    record Run(int exit, String out, String err) {

        /** The stderr lines, without blank ones. */
        java.util.List<String> errLines() {
            return err.lines().filter(l -> !l.isBlank()).toList();
        }
    }

    private CliRunner() {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }
}
