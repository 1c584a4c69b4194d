package dev.proxypool.cli.admin;

import picocli.CommandLine.Command;

/**
 * {@code proxypool admin ...}: a client of a running server's admin API ({@code /v1/admin},
 * docs/api.md). Every subcommand takes {@code --api} (default {@code http://127.0.0.1:9090}),
 * {@code --token} (default: {@code PROXYPOOL_ADMIN_TOKEN}) and {@code --timeout}; tables for
 * people, {@code --json} prints the server's JSON as-is.
 *
 * <p>Exit codes: 0 ok; 1 server error or unreachable server (401, 404, 409, 422, 5xx); 2 usage:
 * bad flags, an unreadable {@code --file}, and {@code 400 invalid_request} (the caller's input).
 * Errors are one line on stderr; the global {@code --verbose} adds the stack trace.
 */
@Command(
        name = "admin",
        mixinStandardHelpOptions = true,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Administer a running server through its admin API (/v1/admin).",
            "Configuration (providers, upstreams, routings, clients), the pool (proxies, snapshot,",
            "fetch), sequential routings, the audit log, and the operators."
        },
        subcommands = {
            ProvidersCommand.class,
            UpstreamsCommand.class,
            RoutingsCommand.class,
            ClientsCommand.class,
            ProxiesCommand.class,
            SequentialCommand.class,
            SnapshotCommand.class,
            AuditCommand.class,
            FetchCommand.class,
            OperatorsCommand.class
        },
        footer = {
            "",
            "Every command takes --api URL (default http://127.0.0.1:9090),",
            "--token T (admin.token or an operator's token; default: $PROXYPOOL_ADMIN_TOKEN)",
            "and --timeout DURATION. Tables for people; --json prints the server's JSON.",
            "",
            "Examples:",
            "  export PROXYPOOL_ADMIN_TOKEN=...",
            "  proxypool admin routings list",
            "  proxypool admin routings create --file shop.json",
            "  proxypool admin proxies list --upstream vendor-a-us --all",
            "  proxypool admin proxies disable ID",
            "  proxypool admin sequential advance shop",
            "  proxypool admin audit --limit 20",
            "  proxypool admin operators create alice --role viewer",
            ""
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:ok",
            "1:error: unreachable server, 401 wrong token, 404 not found, 409 conflict, 422, 5xx",
            "2:usage: bad options, unreadable --file, or 400 invalid_request from the server"
        })
public final class AdminCommand {}
