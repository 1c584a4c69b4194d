package dev.proxypool.cli.admin;

import dev.proxypool.cli.Table;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code proxypool admin audit}: the admin audit log, newest first ({@code GET /v1/admin/audit}). */
@Command(
        name = "audit",
        mixinStandardHelpOptions = true,
        description = {
            "Show the admin audit log, newest first (GET /v1/admin/audit).",
            "Every configuration change and operator action; --json adds before/after."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool admin audit --limit 20",
            "  proxypool admin audit --json | jq '.entries[0].after'",
            ""
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:ok",
            "1:error (unreachable, 401, 503 database_unavailable, ...)",
            "2:usage (or 400, e.g. a bad --limit)"
        })
final class AuditCommand implements Callable<Integer> {

    @Mixin
    AdminConnection conn;

    @Option(names = "--limit", paramLabel = "N", description = "How many entries (server default 100).")
    Integer limit;

    @Option(names = "--cursor", paramLabel = "C", description = "Continue after a previous page.")
    String cursor;

    @Option(names = "--json", description = "The server's JSON as-is.")
    boolean json;

    @Override
    public Integer call() {
        return conn.run((client, out) -> {
            StringBuilder q = new StringBuilder();
            if (limit != null) {
                q.append("limit=").append(limit);
            }
            if (cursor != null) {
                q.append(q.isEmpty() ? "" : "&").append("cursor=").append(AdminClient.query(cursor));
            }
            AdminResponse r =
                    client.get("/audit" + (q.isEmpty() ? "" : "?" + q)).expectOk();
            if (json) {
                out.println(r.body());
                return;
            }
            Map<String, Object> body = r.json();
            List<?> entries = body.get("entries") instanceof List<?> l ? l : List.of();
            Table t = new Table("ID", "AT", "ACTOR", "ACTION", "ENTITY");
            for (Object o : entries) {
                if (o instanceof Map<?, ?> e) {
                    t.row(
                            AdminTable.text(e.get("id")),
                            AdminTable.text(e.get("at")),
                            AdminTable.text(e.get("actor")),
                            AdminTable.text(e.get("action")),
                            AdminTable.text(e.get("entityType")) + " " + AdminTable.text(e.get("entityName")));
                }
            }
            if (t.size() == 0) {
                out.println("no audit entries");
            } else {
                t.print(out);
            }
            if (body.get("nextCursor") instanceof String next && !next.isEmpty()) {
                out.println("more: add --cursor " + next);
            }
        });
    }
}
