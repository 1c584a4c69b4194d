package dev.proxypool.cli.admin;

import dev.proxypool.cli.Table;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code proxypool admin snapshot}: the live pool snapshot and the store's counts ({@code GET /v1/admin/snapshot}). */
@Command(
        name = "snapshot",
        mixinStandardHelpOptions = true,
        description = {
            "Show the live snapshot: version, age, proxies per upstream.",
            "Also the store's available/disabled counts (GET /v1/admin/snapshot)."
        },
        footer = {"", "Examples:", "  proxypool admin snapshot", "  proxypool admin snapshot --json | jq .size", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:ok", "1:error (unreachable, 401, ...)", "2:usage"})
final class SnapshotCommand implements Callable<Integer> {

    @Mixin
    AdminConnection conn;

    @Option(names = "--json", description = "The server's JSON as-is.")
    boolean json;

    @Override
    public Integer call() {
        return conn.run((client, out) -> {
            AdminResponse r = client.get("/snapshot").expectOk();
            if (json) {
                out.println(r.body());
                return;
            }
            Map<String, Object> s = r.json();
            out.println("snapshot version " + AdminTable.text(s.get("version")) + ", generated "
                    + AdminTable.text(s.get("generatedAt")) + " (" + AdminTable.text(s.get("ageSeconds")) + "s ago), "
                    + proxies(s.get("size")));
            Map<?, ?> sizes = s.get("sizesByUpstream") instanceof Map<?, ?> m ? m : Map.of();
            Map<?, ?> store = s.get("store") instanceof Map<?, ?> m ? m : null;
            TreeSet<String> names = new TreeSet<>();
            sizes.keySet().forEach(k -> names.add(String.valueOf(k)));
            if (store != null) {
                store.keySet().forEach(k -> names.add(String.valueOf(k)));
            }
            Table t = new Table("UPSTREAM", "IN-SNAPSHOT", "STORED-AVAILABLE", "STORED-DISABLED");
            for (String u : names) {
                Map<?, ?> c = store != null && store.get(u) instanceof Map<?, ?> m ? m : Map.of();
                t.row(
                        u,
                        sizes.get(u) == null ? "0" : AdminTable.text(sizes.get(u)),
                        store == null ? "?" : AdminTable.text(c.get("available")),
                        store == null ? "?" : AdminTable.text(c.get("disabled")));
            }
            if (t.size() > 0) {
                t.print(out);
            }
            if (store == null) {
                out.println("(the pool store is unavailable: stored counts unknown)");
            }
        });
    }

    /** {@code "1 proxy"}, {@code "2 proxies"}, {@code "0 proxies (the pool is empty)"}. */
    static String proxies(Object size) {
        String n = AdminTable.text(size);
        return switch (n) {
            case "1" -> "1 proxy";
            case "0" -> "0 proxies (the pool is empty)";
            default -> n + " proxies";
        };
    }
}
