package dev.proxypool.cli.admin;

import dev.proxypool.cli.Table;
import dev.proxypool.server.persistence.JsonTree;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code proxypool admin operators ...} (also {@code proxypool operators ...}): named admin
 * identities, each with its own token and a role ({@code /v1/admin/operators}).
 */
@Command(
        name = "operators",
        mixinStandardHelpOptions = true,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Operators: named admin identities, each with its own token and a role.",
            "Role admin reads and writes; viewer only reads (every write answers 403).",
            "The audit log names the operator. admin.token stays the bootstrap identity 'admin'."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool admin operators create alice --role viewer   # prints the token once",
            "  proxypool admin operators list",
            "  proxypool admin operators whoami --token \"$ALICE_TOKEN\"",
            "  proxypool admin operators revoke alice",
            ""
        })
public final class OperatorsCommand {

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "List the operators (GET /v1/admin/operators); tokens are never shown.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:ok", "1:error (unreachable, 401, 5xx, ...)", "2:usage"})
    public int list(
            @Mixin AdminConnection conn,
            @Option(names = "--json", description = "Print the server's JSON answer as-is.") boolean json) {
        return conn.run((client, out) -> {
            AdminResponse r = client.get("/operators").expectOk();
            if (json) {
                out.println(r.body());
                return;
            }
            List<?> list = r.json().get("operators") instanceof List<?> l ? l : List.of();
            if (list.isEmpty()) {
                out.println("no operators");
                return;
            }
            Table t = new Table("NAME", "ROLE", "CREATED", "BY");
            for (Object o : list) {
                if (o instanceof Map<?, ?> e) {
                    boolean bootstrap = Boolean.TRUE.equals(e.get("bootstrap"));
                    t.row(
                            AdminTable.text(e.get("name")),
                            AdminTable.text(e.get("role")),
                            bootstrap ? "admin.token" : AdminTable.text(e.get("createdAt")),
                            bootstrap ? "-" : AdminTable.text(e.get("createdBy")));
                }
            }
            t.print(out);
        });
    }

    @Command(
            name = "create",
            mixinStandardHelpOptions = true,
            description = {
                "Create an operator and print its token (POST /v1/admin/operators).",
                "The token is shown this one time only: the server keeps its SHA-256."
            },
            footer = {
                "",
                "Examples:",
                "  proxypool admin operators create alice --role viewer",
                "  TOKEN=$(proxypool admin operators create bob --role admin --json | jq -r .token)",
                ""
            },
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                "0:created",
                "1:error (409: the name exists or is reserved, 403: you are a viewer, unreachable, 401, ...)",
                "2:usage (or 400: a bad name or role)"
            })
    public int create(
            @Mixin AdminConnection conn,
            @Parameters(paramLabel = "NAME", description = "The operator's name ([A-Za-z0-9._-]{1,64}).") String name,
            @Option(
                            names = "--role",
                            required = true,
                            paramLabel = "ROLE",
                            description = "admin (read-write) or viewer (read-only).")
                    String role,
            @Option(names = "--json", description = "Print the server's JSON answer as-is.") boolean json) {
        return conn.run((client, out) -> {
            String body = JsonTree.write(new TreeMap<>(Map.of("name", name, "role", role)));
            AdminResponse r = client.post("/operators", body).expectOk();
            if (json) {
                out.println(r.body());
                return;
            }
            out.println("created operator '" + name + "' (role "
                    + AdminTable.text(r.json().get("role")) + "); its token, shown only now:");
            out.println(AdminTable.text(r.json().get("token")));
        });
    }

    @Command(
            name = "revoke",
            aliases = "delete",
            mixinStandardHelpOptions = true,
            description = "Revoke an operator: its token stops working (DELETE /v1/admin/operators/NAME).",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                "0:revoked",
                "1:error (404 unknown, 409 the bootstrap 'admin', 403 you are a viewer, unreachable, ...)",
                "2:usage"
            })
    public int revoke(
            @Mixin AdminConnection conn,
            @Parameters(paramLabel = "NAME", description = "The operator's name.") String name) {
        return conn.run((client, out) -> {
            client.delete("/operators/" + AdminClient.segment(name)).expectOk();
            out.println("revoked operator '" + name + "'");
        });
    }

    @Command(
            name = "whoami",
            mixinStandardHelpOptions = true,
            description = "Show whom the token names and its role (GET /v1/admin/whoami).",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:ok", "1:error (401 unknown token, unreachable, ...)", "2:usage"})
    public int whoami(
            @Mixin AdminConnection conn,
            @Option(names = "--json", description = "Print the server's JSON answer as-is.") boolean json) {
        return conn.run((client, out) -> {
            AdminResponse r = client.get("/whoami").expectOk();
            Map<String, Object> m = r.json();
            out.println(
                    json
                            ? r.body()
                            : AdminTable.text(m.get("name")) + " (role " + AdminTable.text(m.get("role"))
                                    + (Boolean.TRUE.equals(m.get("bootstrap")) ? ", admin.token" : "") + ")");
        });
    }
}
