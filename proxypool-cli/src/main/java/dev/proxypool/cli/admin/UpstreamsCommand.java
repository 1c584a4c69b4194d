package dev.proxypool.cli.admin;

import java.util.Map;
import picocli.CommandLine.Command;

/** {@code proxypool admin upstreams ...}: named slices of a provider. */
@Command(
        name = "upstreams",
        mixinStandardHelpOptions = true,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Upstreams: named slices of a provider (params, fetch, validation).",
            "'proxypool admin fetch NAME' asks the server to fetch one now."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool admin upstreams list",
            "  proxypool admin upstreams create --json '{\"name\": \"lab-us\",",
            "      \"provider\": \"lab\", \"params\": {\"country\": \"US\"}, \"validate\": false}'",
            "  proxypool admin upstreams get lab-us",
            ""
        })
final class UpstreamsCommand extends EntityCommand {

    @Override
    String plural() {
        return "upstreams";
    }

    @Override
    String[] columns() {
        return new String[] {"PROVIDER", "PARAMS", "VALIDATE"};
    }

    @Override
    String[] cells(Map<String, Object> e) {
        Object validate = e.get("validate");
        return new String[] {
            cell(e, "provider"), cell(e, "params"), validate == null ? "true" : AdminTable.text(validate)
        };
    }
}
