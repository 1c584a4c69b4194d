package dev.proxypool.cli.admin;

import dev.proxypool.cli.Table;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code proxypool admin sequential get|reset|advance ROUTING}: the live upstream position of a
 * sequential routing ({@code GET|POST /v1/admin/routings/{name}/sequential}).
 */
@Command(
        name = "sequential",
        mixinStandardHelpOptions = true,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Sequential routings: show the current upstream, reset or advance it.",
            "Changes are persisted and audited."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool admin sequential get shop",
            "  proxypool admin sequential advance shop",
            "  proxypool admin sequential reset shop --json",
            ""
        })
final class SequentialCommand {

    @Command(
            name = "get",
            mixinStandardHelpOptions = true,
            description = {"Show the state of a sequential routing.", "(GET /v1/admin/routings/ROUTING/sequential)"},
            footer = {"", "Examples:", "  proxypool admin sequential get shop", ""},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:ok", "1:error (404: no such routing or not sequential, unreachable, 401, ...)", "2:usage"
            })
    public int get(
            @Mixin AdminConnection conn,
            @Parameters(paramLabel = "ROUTING") String routing,
            @Option(names = "--json", description = "The server's JSON as-is.") boolean json) {
        return conn.run((client, out) -> print(out, client.get(path(routing)).expectOk(), json));
    }

    @Command(
            name = "reset",
            mixinStandardHelpOptions = true,
            description = "Go back to the first upstream (POST {\"action\": \"reset\"}).",
            footer = {"", "Examples:", "  proxypool admin sequential reset shop", ""},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                "0:ok",
                "1:error (404: no such routing or not sequential, 503, unreachable, 401, ...)",
                "2:usage"
            })
    public int reset(
            @Mixin AdminConnection conn,
            @Parameters(paramLabel = "ROUTING") String routing,
            @Option(names = "--json", description = "The server's JSON as-is.") boolean json) {
        return act(conn, routing, "reset", json);
    }

    @Command(
            name = "advance",
            mixinStandardHelpOptions = true,
            description = {
                "Switch to the next upstream now (POST {\"action\": \"advance\"}).",
                "Past the last one the routing's exhaustion rule applies (stop, loop, stayLast)."
            },
            footer = {"", "Examples:", "  proxypool admin sequential advance shop", ""},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                "0:ok",
                "1:error (404: no such routing or not sequential, 503, unreachable, 401, ...)",
                "2:usage"
            })
    public int advance(
            @Mixin AdminConnection conn,
            @Parameters(paramLabel = "ROUTING") String routing,
            @Option(names = "--json", description = "The server's JSON as-is.") boolean json) {
        return act(conn, routing, "advance", json);
    }

    private static int act(AdminConnection conn, String routing, String action, boolean json) {
        return conn.run((client, out) -> print(
                out,
                client.post(path(routing), "{\"action\":\"" + action + "\"}").expectOk(),
                json));
    }

    private static String path(String routing) {
        return "/routings/" + AdminClient.segment(routing) + "/sequential";
    }

    private static void print(PrintWriter out, AdminResponse r, boolean json) {
        if (json) {
            out.println(r.body());
            return;
        }
        Map<String, Object> s = r.json();
        Table t =
                new Table("ROUTING", "UPSTREAM", "INDEX", "EXHAUSTED", "UPSTREAMS", "EXHAUSTION", "REASON", "CHANGED");
        t.row(
                AdminTable.text(s.get("routing")),
                AdminTable.text(s.get("upstream")),
                AdminTable.text(s.get("index")),
                AdminTable.text(s.get("exhausted")),
                AdminTable.text(s.get("upstreams")),
                AdminTable.text(s.get("exhaustion")),
                AdminTable.text(s.get("reason")),
                AdminTable.text(s.get("changedAt")));
        t.print(out);
    }
}
