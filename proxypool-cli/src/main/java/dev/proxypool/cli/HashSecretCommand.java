package dev.proxypool.cli;

import dev.proxypool.core.security.SecretHash;
import dev.proxypool.sdk.config.ConfigLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(
        name = "hash-secret",
        mixinStandardHelpOptions = true,
        description = {
            "Reads a client secret on stdin (one line) and prints its secretHash for proxypool.yaml.",
            "The secret must have at least 8 characters, as a plain secret must.",
            "The secret itself is never printed or stored."
        },
        footer = {"", "Example:", "  printf '%%s' \"$ALICE_SECRET\" | proxypool hash-secret"})
final class HashSecretCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        char[] secret = readLine();
        try {
            if (secret.length == 0) {
                spec.commandLine().getErr().println("proxypool hash-secret: no secret on stdin (pipe one line in)");
                return Main.EXIT_USAGE;
            }
            if (secret.length < ConfigLoader.MIN_CLIENT_SECRET_LENGTH) {
                // the rule a plain secret meets (config and admin API): a hash must not let a shorter one in
                spec.commandLine()
                        .getErr()
                        .println("proxypool hash-secret: the secret must be at least "
                                + ConfigLoader.MIN_CLIENT_SECRET_LENGTH + " characters, got " + secret.length);
                return Main.EXIT_USAGE;
            }
            spec.commandLine().getOut().println(SecretHash.hash(secret));
            spec.commandLine().getOut().flush();
            return Main.EXIT_OK;
        } finally {
            Arrays.fill(secret, '\0');
        }
    }

    private static char[] readLine() throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        char[] buf = new char[1024];
        int n = 0;
        int c;
        while ((c = in.read()) != -1 && c != '\n' && n < buf.length) {
            buf[n++] = (char) c;
        }
        if (n > 0 && buf[n - 1] == '\r') {
            n--;
        }
        char[] secret = Arrays.copyOf(buf, n);
        Arrays.fill(buf, '\0');
        return secret;
    }
}
