package dev.proxypool.cli.admin;

import dev.proxypool.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/** Runs {@code proxypool} in-process with captured stdout and stderr. */
record AdminRun(int exit, String out, String err) {

    static AdminRun run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new AdminRun(exit, out.toString(), err.toString());
    }

    /** The stderr lines, without blank ones. */
    List<String> errLines() {
        return err.lines().filter(l -> !l.isBlank()).toList();
    }

    /** The stdout lines, without blank ones. */
    List<String> outLines() {
        return out.lines().filter(l -> !l.isBlank()).toList();
    }

    @Override
    public String toString() {
        return "exit " + exit + "\n--- out\n" + out + "--- err\n" + err;
    }
}
