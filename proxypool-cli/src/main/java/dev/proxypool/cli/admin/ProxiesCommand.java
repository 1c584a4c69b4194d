package dev.proxypool.cli.admin;

import dev.proxypool.cli.Table;
import dev.proxypool.core.model.AddressMask;
import dev.proxypool.server.persistence.JsonTree;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code proxypool admin proxies list|disable|enable}: the stored pool, one page per request
 * ({@code GET /v1/admin/proxies}), or every page with {@code --all}, which follows {@code nextCursor}
 * until it is null (the server guarantees each stored proxy once). Addresses are masked with
 * {@link AddressMask} unless {@code --show-addresses}; the server never sends credentials.
 */
@Command(
        name = "proxies",
        mixinStandardHelpOptions = true,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "The stored pool: list proxies, disable or enable one.",
            "Addresses are masked unless --show-addresses; credentials are never sent."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool admin proxies list --upstream vendor-a-us --label country=US",
            "  proxypool admin proxies list --state disabled --all",
            "  proxypool admin proxies disable 3f9c2a...",
            ""
        })
final class ProxiesCommand {

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = {
                "List stored proxies (GET /v1/admin/proxies), ascending id.",
                "One page of --limit, or every page with --all (following nextCursor).",
                "HOST is masked unless --show-addresses."
            },
            footer = {
                "",
                "Examples:",
                "  proxypool admin proxies list",
                "  proxypool admin proxies list --upstream lab --protocol socks5 \\",
                "      --label country=DE --limit 20",
                "  proxypool admin proxies list --all --limit 500 --json > pool.json",
                "  proxypool admin proxies list --cursor <nextCursor of the previous page>",
                ""
            },
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                "0:ok",
                "1:error (unreachable, 401, 503 store_unavailable, ...)",
                "2:usage (bad options, or 400 from the server, e.g. an unknown state)"
            })
    public int list(
            @Mixin AdminConnection conn,
            @Option(names = "--upstream", paramLabel = "U", description = "Only this upstream's proxies.")
                    String upstream,
            @Option(names = "--state", paramLabel = "STATE", description = "available or disabled.") String state,
            @Option(names = "--protocol", paramLabel = "P", description = "http, https, socks4 or socks5.")
                    String protocol,
            @Option(names = "--label", paramLabel = "KEY=VALUE", description = "A required label; repeatable.")
                    Map<String, String> labels,
            @Option(names = "--limit", paramLabel = "N", description = "Page size (server default 100).") Integer limit,
            @Option(names = "--cursor", paramLabel = "C", description = "Continue after a previous page.")
                    String cursor,
            @Option(names = "--all", description = "Follow the cursors: list every matching proxy.") boolean all,
            @Option(names = "--show-addresses", description = "Show the full host instead of a masked one.")
                    boolean show,
            @Option(
                            names = "--json",
                            description = "The server's JSON as-is (with --all: one object with every proxy).")
                    boolean json) {
        return conn.run((client, out) -> {
            StringBuilder q = new StringBuilder();
            param(q, "upstream", upstream);
            param(q, "state", state);
            param(q, "protocol", protocol);
            if (labels != null) {
                labels.forEach((k, v) -> param(q, "label." + k, v));
            }
            if (limit != null) {
                param(q, "limit", Integer.toString(limit));
            }
            List<Object> proxies = new ArrayList<>();
            String next = cursor;
            while (true) {
                StringBuilder page = new StringBuilder(q);
                param(page, "cursor", next);
                AdminResponse r = client.get("/proxies" + (page.isEmpty() ? "" : "?" + page))
                        .expectOk();
                if (json && !all) {
                    out.println(r.body());
                    return;
                }
                Map<String, Object> body = r.json();
                if (body.get("proxies") instanceof List<?> l) {
                    proxies.addAll(l);
                }
                next = body.get("nextCursor") instanceof String s && !s.isEmpty() ? s : null;
                if (!all || next == null) {
                    break;
                }
            }
            if (json) {
                Map<String, Object> merged = new LinkedHashMap<>();
                merged.put("proxies", proxies);
                merged.put("nextCursor", null);
                out.println(JsonTree.write(merged));
                return;
            }
            table(out, proxies, show);
            out.println(proxies.size()
                    + (proxies.size() == 1 ? " proxy" : " proxies")
                    + (next != null ? "; more: add --cursor " + next + " (or --all)" : ""));
        });
    }

    @Command(
            name = "disable",
            mixinStandardHelpOptions = true,
            description = {
                "Take a proxy out of service (POST /v1/admin/proxies/ID/disable).",
                "No more extractions or picks until enabled again. Audited."
            },
            footer = {"", "Examples:", "  proxypool admin proxies disable ID", ""},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:disabled (or already was)", "1:error (404 unknown id, unreachable, 401, ...)", "2:usage"
            })
    public int disable(
            @Mixin AdminConnection conn,
            @Parameters(paramLabel = "ID", description = "The proxy id.") String id,
            @Option(names = "--json", description = "The server's JSON as-is.") boolean json) {
        return action(conn, id, "disable", json);
    }

    @Command(
            name = "enable",
            mixinStandardHelpOptions = true,
            description = {"Put a proxy back in service (POST /v1/admin/proxies/ID/enable).", "Audited."},
            footer = {"", "Examples:", "  proxypool admin proxies enable ID", ""},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:enabled (or already was)", "1:error (404 unknown id, unreachable, 401, ...)", "2:usage"})
    public int enable(
            @Mixin AdminConnection conn,
            @Parameters(paramLabel = "ID", description = "The proxy id.") String id,
            @Option(names = "--json", description = "The server's JSON as-is.") boolean json) {
        return action(conn, id, "enable", json);
    }

    private static int action(AdminConnection conn, String id, String verb, boolean json) {
        return conn.run((client, out) -> {
            AdminResponse r = client.post("/proxies/" + AdminClient.segment(id) + "/" + verb, null)
                    .expectOk();
            if (json) {
                out.println(r.body());
                return;
            }
            Map<String, Object> p = r.json();
            out.println("proxy " + id + " (" + AddressMask.mask(String.valueOf(p.get("host"))) + ":"
                    + AdminTable.text(p.get("port")) + ", " + AdminTable.text(p.get("upstream")) + ") is "
                    + AdminTable.text(p.get("state")));
        });
    }

    private static void table(PrintWriter out, List<Object> proxies, boolean show) {
        if (proxies.isEmpty()) {
            return;
        }
        Table t = new Table("ID", "HOST", "PROTOCOL", "UPSTREAM", "STATE", "HEALTH", "IN-FLIGHT", "TTL");
        for (Object o : proxies) {
            if (!(o instanceof Map<?, ?> p)) {
                continue;
            }
            String host = String.valueOf(p.get("host"));
            String health = p.get("health") instanceof Map<?, ?> h ? AdminTable.text(h.get("state")) : "-";
            t.row(
                    AdminTable.text(p.get("id")),
                    (show ? host : AddressMask.mask(host)) + ":" + AdminTable.text(p.get("port")),
                    AdminTable.text(p.get("protocol")),
                    AdminTable.text(p.get("upstream")),
                    AdminTable.text(p.get("state")),
                    health,
                    AdminTable.text(p.get("inFlight")) + "/" + AdminTable.text(p.get("maxConcurrency")),
                    AdminTable.ttl(p.get("remainingTtlSeconds")));
        }
        t.print(out);
    }

    private static void param(StringBuilder q, String name, String value) {
        if (value == null) {
            return;
        }
        if (!q.isEmpty()) {
            q.append('&');
        }
        q.append(AdminClient.query(name)).append('=').append(AdminClient.query(value));
    }
}
