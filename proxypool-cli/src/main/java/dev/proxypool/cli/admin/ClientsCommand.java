package dev.proxypool.cli.admin;

import java.util.Map;
import picocli.CommandLine.Command;

/** {@code proxypool admin clients ...}: who may use the gateway and the distribution API. */
@Command(
        name = "clients",
        mixinStandardHelpOptions = true,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Clients: who may use the gateway (secret) and extraction (token).",
            "The server never shows a secret, hash or token (only hasSecret/hasToken)."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool admin clients list",
            "  proxypool hash-secret < secret.txt     # then:",
            "  proxypool admin clients create --json '{\"name\": \"alice\", \"secretHash\": \"...\",",
            "      \"token\": \"...\", \"quota\": {\"extractionsPerHour\": 1000}}'",
            "  # revoke the token, keep the secret:",
            "  proxypool admin clients update alice --json '{\"token\": null}'",
            ""
        })
final class ClientsCommand extends EntityCommand {

    @Override
    String plural() {
        return "clients";
    }

    @Override
    String[] columns() {
        return new String[] {"SECRET", "TOKEN", "QUOTA", "RATE-LIMIT"};
    }

    @Override
    String[] cells(Map<String, Object> e) {
        return new String[] {yesNo(e.get("hasSecret")), yesNo(e.get("hasToken")), cell(e, "quota"), cell(e, "rateLimit")
        };
    }

    private static String yesNo(Object b) {
        return Boolean.TRUE.equals(b) ? "yes" : "no";
    }
}
