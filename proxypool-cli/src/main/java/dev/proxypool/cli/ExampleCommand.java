package dev.proxypool.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code proxypool example NAME}: runs one program of the examples module, with no build tool
 * needed. {@code remote-extraction} defaults to the demo's API and client token.
 *
 * <p>The examples are programs the CLI runs, not code it is built on: the {@code examples} jar is a
 * runtime dependency (it ships in {@code lib/}) and each program's {@code main} is found by class
 * name, so no CLI class compiles against them (docs/architecture.md#dependency-direction).
 */
@Command(
        name = "example",
        mixinStandardHelpOptions = true,
        description = {
            "Run one of the SDK examples (source: examples/src/main/java/dev/proxypool/examples).",
            "remote-extraction talks to a running server: by default the one 'proxypool demo' starts."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool example embedded-pool",
            "  proxypool example custom-provider",
            "  proxypool example remote-extraction",
            "  proxypool example remote-extraction --api http://127.0.0.1:19090 --token my-client-token",
            "  proxypool example remote-extraction --api https://10.0.0.5:9090 --cacert ca.pem --token my-client-token"
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the example ran", "1:the example failed", "2:usage (unknown example)"})
final class ExampleCommand implements Callable<Integer> {

    /** A runnable example: its program (a class of the examples module, loaded when run) and what it shows. */
    record Example(String program, String description) {}

    /** The runnable examples, by name. */
    static final Map<String, Example> EXAMPLES = new LinkedHashMap<>();

    static {
        String pkg = "dev.proxypool.examples.";
        EXAMPLES.put(
                "embedded-pool", new Example(pkg + "EmbeddedPoolExample", "lease and extract in-process, no server"));
        EXAMPLES.put("custom-provider", new Example(pkg + "CustomProviderExample", "a provider adapter of your own"));
        EXAMPLES.put(
                "remote-extraction",
                new Example(pkg + "RemoteExtractionExample", "extract from a running server (the demo)"));
    }

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "embedded-pool, custom-provider or remote-extraction.")
    String name;

    @Option(
            names = "--api",
            paramLabel = "URL",
            defaultValue = "http://127.0.0.1:9090",
            description = "remote-extraction: the server's REST URL (default ${DEFAULT-VALUE}, the demo).")
    String api;

    @Option(
            names = "--token",
            paramLabel = "TOKEN",
            defaultValue = "demo-token-0123456789",
            description = "remote-extraction: a client token (default: the demo's).")
    String token;

    @Option(
            names = "--upstream",
            paramLabel = "NAME",
            description = "remote-extraction: extract only from this upstream (default with the demo's token:"
                    + " sessions, so the demo gateway's own proxies stay in the pool).")
    String upstream;

    @Option(
            names = "--cacert",
            paramLabel = "FILE",
            description = "remote-extraction: PEM certificate(s) to trust for an https:// --api (a private CA or"
                    + " the server's own certificate) instead of the JVM's default trust store.")
    String cacert;

    @Override
    public Integer call() throws Exception {
        if (!EXAMPLES.containsKey(name)) {
            List<String> known = new ArrayList<>(EXAMPLES.keySet());
            spec.commandLine()
                    .getErr()
                    .println(spec.qualifiedName() + ": unknown example '" + name + "' (known: "
                            + String.join(", ", known) + ")");
            return Main.EXIT_USAGE;
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Example example = EXAMPLES.get(name);
        Method main;
        try {
            main = program(example.program());
        } catch (ReflectiveOperationException e) {
            return CliErrors.fail(
                    spec,
                    Main.EXIT_ERROR,
                    "the examples are not installed (no " + example.program()
                            + " on the class path; build with ./mvnw -pl proxypool-cli -am package)",
                    e);
        }
        String[] args = switch (name) {
            case "remote-extraction" -> {
                String from = upstream != null ? upstream : BenchExtractionCommand.demoDefaultUpstream(token);
                String fromArg = from == null ? "-" : from;
                yield cacert == null ? new String[] {api, token, fromArg} : new String[] {api, token, fromArg, cacert};
            }
            default -> new String[0];
        };
        out.println("running " + example.program().substring(example.program().lastIndexOf('.') + 1) + ": "
                + example.description());
        out.flush();
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        System.setOut(new PrintStream(new WriterStream(out), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new WriterStream(err), true, StandardCharsets.UTF_8));
        try {
            main.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            // the example's own failure, thrown as it was (as when it ran as a program)
            if (e.getCause() instanceof Exception thrown) {
                throw thrown;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        } finally {
            System.out.flush();
            System.err.flush();
            System.setOut(stdout);
            System.setErr(stderr);
        }
        out.flush();
        return Main.EXIT_OK;
    }

    /** The {@code public static void main(String[])} of a class of the examples module. */
    private static Method program(String className) throws ReflectiveOperationException {
        Method main = Class.forName(className, true, ExampleCommand.class.getClassLoader())
                .getMethod("main", String[].class);
        if (!Modifier.isStatic(main.getModifiers())) {
            throw new NoSuchMethodException(className + ".main is not static");
        }
        return main;
    }

    /** Bytes written by an example's {@code System.out}, passed on to the command's writer. */
    private static final class WriterStream extends OutputStream {
        private final PrintWriter to;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        WriterStream(PrintWriter to) {
            this.to = to;
        }

        @Override
        public synchronized void write(int b) {
            line.write(b);
            if (b == '\n') {
                flush();
            }
        }

        @Override
        public synchronized void flush() {
            to.print(line.toString(StandardCharsets.UTF_8));
            to.flush();
            line.reset();
        }
    }
}
