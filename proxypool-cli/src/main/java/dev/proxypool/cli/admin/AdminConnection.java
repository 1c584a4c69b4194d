package dev.proxypool.cli.admin;

import dev.proxypool.cli.CaCertOption;
import dev.proxypool.sdk.config.Durations;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The options every admin command shares ({@code --api}, {@code --token}, {@code --cacert},
 * {@code --timeout}) and
 * the way each one runs: open a client, do the work, and turn an {@link AdminFailure} into one line
 * on stderr ({@code proxypool admin routings create: 400 invalid_request: ...}) plus the stack trace
 * only with the global {@code --verbose}.
 */
final class AdminConnection {

    static final String TOKEN_ENV = "PROXYPOOL_ADMIN_TOKEN";

    /** What a command does once connected; it writes to {@code out} and throws {@link AdminFailure} to stop. */
    @FunctionalInterface
    interface Action {
        void run(AdminClient client, PrintWriter out);
    }

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(
            names = "--api",
            paramLabel = "URL",
            defaultValue = "http://127.0.0.1:9090",
            description = "The server's REST listener (default ${DEFAULT-VALUE}).")
    String api;

    @Option(
            names = "--token",
            paramLabel = "T",
            defaultValue = "${env:" + TOKEN_ENV + "}",
            description = "Admin bearer token (admin.token or an operator's; default: the " + TOKEN_ENV
                    + " environment variable).")
    String token;

    @Mixin
    CaCertOption caCert;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "10s",
            description = "Connect and request timeout, e.g. 500ms, 10s, 1m (default ${DEFAULT-VALUE}).")
    String timeout;

    /** Runs {@code action} against the server; returns the exit code. */
    int run(Action action) {
        PrintWriter out = spec.commandLine().getOut();
        try {
            String base = apiBase();
            Duration t = timeout();
            if (token == null || token.isBlank()) {
                throw AdminFailure.usage("no admin token: pass --token or set " + TOKEN_ENV);
            }
            SSLContext tls;
            try {
                tls = caCert.sslContext();
            } catch (IllegalArgumentException e) {
                throw AdminFailure.usage(e.getMessage());
            }
            try (AdminClient client = new AdminClient(base, token.strip(), t, tls)) {
                action.run(client, out);
            }
            out.flush();
            return AdminExit.OK;
        } catch (AdminFailure f) {
            out.flush();
            return fail(f.exit(), f.getMessage(), f.getCause() != null ? f.getCause() : f);
        }
    }

    private String apiBase() {
        String a = api == null ? "" : api.strip();
        while (a.endsWith("/")) {
            a = a.substring(0, a.length() - 1);
        }
        try {
            URI u = URI.create(a);
            if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
                throw new IllegalArgumentException("not http(s)");
            }
        } catch (IllegalArgumentException e) {
            throw AdminFailure.usage("--api: '" + api + "' is not an http(s) URL (e.g. http://127.0.0.1:9090)");
        }
        return a;
    }

    private Duration timeout() {
        try {
            Duration d = Durations.parse("--timeout", timeout);
            if (d.isZero() || d.isNegative()) {
                throw new IllegalArgumentException("not positive");
            }
            return d;
        } catch (RuntimeException e) {
            throw AdminFailure.usage(
                    "--timeout: '" + timeout + "' is not a positive duration (write e.g. 500ms, 10s, 1m)");
        }
    }

    /** One line {@code <qualified command>: message} on stderr; the trace too with {@code --verbose}. */
    int fail(int exit, String message, Throwable cause) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(spec.qualifiedName() + ": " + message);
        if (cause != null && verbose()) {
            cause.printStackTrace(err);
        }
        err.flush();
        return exit;
    }

    private boolean verbose() {
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
}
