package dev.proxypool.cli.admin;

import java.util.Map;
import picocli.CommandLine.Command;

/** {@code proxypool admin providers ...}: where candidate proxies come from. */
@Command(
        name = "providers",
        mixinStandardHelpOptions = true,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Providers: where candidate proxies come from.",
            "Types: jsonl_inventory, text_list, http_json_feed, csv, session_gateway (docs/providers.md)."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool admin providers list",
            "  proxypool admin providers create --json '{\"name\": \"lab\",",
            "      \"type\": \"jsonl_inventory\", \"path\": \"inventory/lab.jsonl\"}'",
            "  proxypool admin providers delete lab",
            ""
        })
final class ProvidersCommand extends EntityCommand {

    @Override
    String plural() {
        return "providers";
    }

    @Override
    String[] columns() {
        return new String[] {"TYPE", "SOURCE"};
    }

    @Override
    String[] cells(Map<String, Object> e) {
        Object source = e.get("path") != null ? e.get("path") : e.get("url");
        return new String[] {cell(e, "type"), AdminTable.text(source)};
    }
}
