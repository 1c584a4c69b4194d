package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The help a first-time user reads: complete summaries, no picocli warnings, examples that run as printed. */
@Tag("slow")
class HelpTextTest {

    @Test
    void everyCommandSummaryIsACompleteSentence() {
        List<String> cut = new ArrayList<>();
        walk(Main.commandLine(), cut);
        assertEquals(
                List.of(),
                cut,
                "summaries (the first description line, shown in the parent's command list) "
                        + "must be whole sentences");
    }

    private static void walk(CommandLine cl, List<String> cut) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            String[] d = sub.getCommandSpec().usageMessage().description();
            String first = d.length == 0 ? "" : d[0].strip();
            if (!first.endsWith(".")) {
                cut.add(sub.getCommandSpec().qualifiedName() + ": '" + first + "'");
            }
            walk(sub, cut);
        }
    }

    @Test
    void helpOfEveryCommandPrintsNoPicocliWarning() {
        List<String> warned = new ArrayList<>();
        List<String[]> commands = new ArrayList<>();
        collect(Main.commandLine(), new ArrayList<>(), commands);
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            for (String[] c : commands) {
                String[] args = Arrays.copyOf(c, c.length + 1);
                args[c.length] = "--help";
                CliRunner.Run r = CliRunner.run(args);
                if (r.exit() != 0 || !r.err().isEmpty() || r.out().contains("picocli WARN")) {
                    warned.add(String.join(" ", args) + ": exit " + r.exit() + " " + r.err());
                }
            }
        } finally {
            System.setErr(err);
        }
        String stderr = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(commands.size() > 20, "sanity: the whole command tree was walked: " + commands.size());
        assertEquals(List.of(), warned);
        assertEquals("", stderr, "picocli wrote to System.err");
        assertTrue(CliRunner.run("hash-secret", "--help")
                .out()
                .contains("printf '%s' \"$ALICE_SECRET\" | proxypool hash-secret"));
    }

    private static void collect(CommandLine cl, List<String> path, List<String[]> out) {
        for (var e : cl.getSubcommands().entrySet()) {
            if (!e.getKey().equals(e.getValue().getCommandName())) {
                continue; // an alias
            }
            List<String> p = new ArrayList<>(path);
            p.add(e.getKey());
            out.add(p.toArray(String[]::new));
            collect(e.getValue(), p, out);
        }
    }

    @Test
    void theCapacityExampleRunsAsPrinted() {
        String help = CliRunner.run("capacity", "--help").out();
        int at = help.indexOf("Example:");
        assertTrue(at >= 0, help);
        // what a user copies: the example lines, joined at the shell's line continuation
        // as a shell reads it: a line ends the command unless it ends with a backslash
        String example = help.substring(at + "Example:".length())
                .strip()
                .replace("\\\n", " ")
                .lines()
                .findFirst()
                .orElse("");
        assertTrue(example.startsWith("proxypool capacity "), example);
        String[] words = example.substring("proxypool ".length()).trim().split("\\s+");
        CliRunner.Run r = CliRunner.run(words);
        assertEquals(Main.EXIT_OK, r.exit(), example + " -> " + r.err());
        assertTrue(r.out().contains("16"), r.out());
        assertTrue(
                example.contains("--spares 2"),
                "the whole example is one shell command: " + example); // ceil(100000 / (12000 * 0.6)) + 2 = 14 + 2
    }
}
