package dev.proxypool.cli.admin;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code proxypool admin fetch UPSTREAM}: ask the server to fetch an upstream now ({@code POST /v1/admin/upstreams/{name}/fetch}). */
@Command(
        name = "fetch",
        mixinStandardHelpOptions = true,
        description = {
            "Ask the server to fetch an upstream now.",
            "POST /v1/admin/upstreams/UPSTREAM/fetch; asynchronous: the answer means",
            "requested, watch 'proxypool admin snapshot' for the result."
        },
        footer = {"", "Examples:", "  proxypool admin fetch vendor-a-us", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:requested",
            "1:error (404: this server fetches no such upstream, unreachable, 401, ...)",
            "2:usage"
        })
final class FetchCommand implements Callable<Integer> {

    @Mixin
    AdminConnection conn;

    @Parameters(paramLabel = "UPSTREAM", description = "The upstream's name.")
    String upstream;

    @Option(names = "--json", description = "The server's JSON as-is.")
    boolean json;

    @Override
    public Integer call() {
        return conn.run((client, out) -> {
            AdminResponse r = client.post("/upstreams/" + AdminClient.segment(upstream) + "/fetch", null)
                    .expectOk();
            out.println(json ? r.body() : "fetch of upstream '" + upstream + "' requested (it runs in the background)");
        });
    }
}
