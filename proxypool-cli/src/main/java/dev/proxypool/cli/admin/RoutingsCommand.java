package dev.proxypool.cli.admin;

import java.util.Map;
import picocli.CommandLine.Command;

/** {@code proxypool admin routings ...}: ordered rules from requests to upstreams. */
@Command(
        name = "routings",
        mixinStandardHelpOptions = true,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Routings: ordered rules from requests to upstreams (first match wins).",
            "A document may carry \"position\" to move the routing; changes apply live."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool admin routings list",
            "  proxypool admin routings create --json '{\"name\": \"shop\", \"position\": 0,",
            "      \"match\": {\"hosts\": [\"*.shop.example\"]}, \"strategy\": \"sequential\",",
            "      \"upstreams\": [\"vendor-a-us\", \"vendor-b-us\"], \"exhaustion\": \"loop\"}'",
            "  proxypool admin routings update shop --file shop.json",
            "  proxypool admin routings delete shop",
            ""
        })
final class RoutingsCommand extends EntityCommand {

    @Override
    String plural() {
        return "routings";
    }

    @Override
    String[] columns() {
        return new String[] {"POSITION", "STRATEGY", "MATCH", "UPSTREAMS"};
    }

    @Override
    String[] cells(Map<String, Object> e) {
        Object strategy = e.get("strategy");
        return new String[] {
            cell(e, "position"),
            strategy == null ? "roundRobin" : AdminTable.text(strategy),
            e.get("match") == null ? "(all)" : cell(e, "match"),
            e.get("upstreams") == null ? "(all)" : cell(e, "upstreams")
        };
    }
}
