package dev.proxypool.cli.admin;

import dev.proxypool.cli.Table;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * CRUD of one configuration entity type under {@code /v1/admin/<plural>}: {@code list}, {@code get},
 * {@code create}, {@code update}, {@code delete}, as picocli method subcommands shared by
 * {@link ProvidersCommand}, {@link UpstreamsCommand}, {@link RoutingsCommand} and {@link ClientsCommand}.
 * A subclass names the type and the summary columns of its {@code list} table.
 *
 * <p>{@code get}, {@code create} and {@code update} print the entity document the server answers
 * (JSON, as-is); on {@code create} and {@code update}, {@code --json} is the request body (the
 * alternative to {@code --file}), not an output switch.
 */
abstract class EntityCommand {

    /** The URL collection, e.g. {@code routings}. */
    abstract String plural();

    /** The columns of {@code list} after NAME. */
    abstract String[] columns();

    /** The cells of one entity for {@link #columns()}. */
    abstract String[] cells(Map<String, Object> entity);

    final String singular() {
        return plural().substring(0, plural().length() - 1);
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description =
                    "List the ${PARENT-COMMAND-NAME} (GET /v1/admin/${PARENT-COMMAND-NAME}), in configuration order.",
            footer = {
                "",
                "Examples:",
                "  proxypool admin ${PARENT-COMMAND-NAME} list",
                "  proxypool admin ${PARENT-COMMAND-NAME} list --json | jq .",
                ""
            },
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:ok", "1:error (unreachable, 401, 5xx, ...)", "2:usage"})
    public int list(
            @Mixin AdminConnection conn,
            @Option(names = "--json", description = "Print the server's JSON answer as-is.") boolean json) {
        return conn.run((client, out) -> {
            AdminResponse r = client.get("/" + plural()).expectOk();
            if (json) {
                out.println(r.body());
                return;
            }
            Object items = r.json().get(plural());
            List<?> list = items instanceof List<?> l ? l : List.of();
            if (list.isEmpty()) {
                out.println("no " + plural() + " (configuration version "
                        + AdminTable.text(r.json().get("version")) + ")");
                return;
            }
            String[] more = columns();
            String[] headers = new String[more.length + 1];
            headers[0] = "NAME";
            System.arraycopy(more, 0, headers, 1, more.length);
            Table t = new Table(headers);
            for (Object o : list) {
                @SuppressWarnings("unchecked")
                Map<String, Object> e = (Map<String, Object>) o;
                String[] c = cells(e);
                String[] row = new String[c.length + 1];
                row[0] = AdminTable.text(e.get("name"));
                System.arraycopy(c, 0, row, 1, c.length);
                t.row(row);
            }
            t.print(out);
        });
    }

    @Command(
            name = "get",
            mixinStandardHelpOptions = true,
            description = "Print one as the server's JSON (GET /v1/admin/${PARENT-COMMAND-NAME}/NAME).",
            footer = {"", "Examples:", "  proxypool admin ${PARENT-COMMAND-NAME} get NAME", ""},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:ok", "1:error (404 not found, unreachable, 401, ...)", "2:usage"})
    public int get(
            @Mixin AdminConnection conn, @Parameters(paramLabel = "NAME", description = "The name.") String name) {
        return conn.run(
                (client, out) -> out.println(client.get(path(name)).expectOk().body()));
    }

    @Command(
            name = "create",
            mixinStandardHelpOptions = true,
            description = {
                "Create one from a JSON document (POST /v1/admin/${PARENT-COMMAND-NAME}).",
                "Prints the created document. The server checks it against the whole",
                "configuration (a 400 names the field) and audits the change.",
                "Here --json is the document, not an output switch."
            },
            footer = {
                "",
                "Examples:",
                "  proxypool admin ${PARENT-COMMAND-NAME} create --file new.json",
                "  proxypool admin routings create --json '{\"name\": \"shop\",",
                "      \"match\": {\"hosts\": [\"*.shop.example\"]}, \"upstreams\": [\"vendor-a-us\"]}'",
                ""
            },
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                "0:created",
                "1:error (409 conflict: the name exists, unreachable, 401, ...)",
                "2:usage (no or two bodies, unreadable --file, 400 invalid_request)"
            })
    public int create(
            @Mixin AdminConnection conn,
            @Option(
                            names = "--file",
                            paramLabel = "FILE",
                            description = "The JSON document in a file ('-' reads stdin).")
                    Path file,
            @Option(names = "--json", paramLabel = "JSON", description = "The JSON document inline.") String json) {
        return conn.run((client, out) -> out.println(
                client.post("/" + plural(), body(file, json)).expectOk().body()));
    }

    @Command(
            name = "update",
            mixinStandardHelpOptions = true,
            description = {
                "Replace one with a JSON document (PUT /v1/admin/${PARENT-COMMAND-NAME}/NAME).",
                "The whole document is replaced: fields left out go back to their defaults",
                "(a client's secret and token are kept unless set to null). Prints the",
                "stored document. Here --json is the document, not an output switch."
            },
            footer = {
                "",
                "Examples:",
                "  proxypool admin ${PARENT-COMMAND-NAME} update NAME --file changed.json",
                "  proxypool admin routings update shop \\",
                "      --json '{\"upstreams\": [\"vendor-b-us\"], \"position\": 0}'",
                ""
            },
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                "0:updated",
                "1:error (404 not found, 409 conflict, unreachable, 401, ...)",
                "2:usage (no or two bodies, unreadable --file, 400 invalid_request)"
            })
    public int update(
            @Mixin AdminConnection conn,
            @Parameters(paramLabel = "NAME", description = "The name.") String name,
            @Option(
                            names = "--file",
                            paramLabel = "FILE",
                            description = "The JSON document in a file ('-' reads stdin).")
                    Path file,
            @Option(names = "--json", paramLabel = "JSON", description = "The JSON document inline.") String json) {
        return conn.run((client, out) ->
                out.println(client.put(path(name), body(file, json)).expectOk().body()));
    }

    @Command(
            name = "delete",
            mixinStandardHelpOptions = true,
            description = "Delete one (DELETE /v1/admin/${PARENT-COMMAND-NAME}/NAME).",
            footer = {"", "Examples:", "  proxypool admin ${PARENT-COMMAND-NAME} delete NAME", ""},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                "0:deleted",
                "1:error (404 not found, 409 still referenced, unreachable, 401, ...)",
                "2:usage"
            })
    public int delete(
            @Mixin AdminConnection conn, @Parameters(paramLabel = "NAME", description = "The name.") String name) {
        return conn.run((client, out) -> {
            client.delete(path(name)).expectOk();
            out.println("deleted " + singular() + " '" + name + "'");
        });
    }

    private String path(String name) {
        return "/" + plural() + "/" + AdminClient.segment(name);
    }

    /** The request body from exactly one of {@code --file} and {@code --json}. */
    static String body(Path file, String json) {
        if ((file == null) == (json == null)) {
            throw AdminFailure.usage(
                    file == null
                            ? "give the JSON document with --file FILE or --json '{...}'"
                            : "give --file or --json, not both");
        }
        if (json != null) {
            return json;
        }
        try {
            if (file.toString().equals("-")) {
                return new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
            }
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AdminFailure(
                    AdminExit.USAGE,
                    "--file: cannot read " + file + " ("
                            + (e instanceof NoSuchFileException
                                    ? "no such file"
                                    : e.getClass().getSimpleName()
                                            + (e.getMessage() == null ? "" : ": " + e.getMessage()))
                            + ")",
                    e);
        }
    }

    /** Helper for subclasses: the entity field as a cell. */
    static String cell(Map<String, Object> e, String key) {
        return AdminTable.text(e.get(key));
    }
}
