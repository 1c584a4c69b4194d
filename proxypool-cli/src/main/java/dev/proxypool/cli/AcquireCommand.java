package dev.proxypool.cli;

import dev.proxypool.core.model.AddressMask;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.remote.DistributionClient;
import dev.proxypool.sdk.remote.DistributionException;
import dev.proxypool.sdk.remote.LeaseRequest;
import dev.proxypool.sdk.remote.RemoteLease;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "acquire",
        mixinStandardHelpOptions = true,
        description = {
            "Lease a proxy from a running server for direct use (POST /v1/proxy/acquire).",
            "The proxy stays in the pool; the lease holds one unit of its capacity until",
            "'proxypool release' or its expiry. The table masks the address and hides the",
            "URL, which carries credentials: add --show-urls, or use --json in scripts."
        },
        footer = {
            "",
            "Examples:",
            "  export PROXYPOOL_TOKEN=...",
            "  proxypool acquire --host shop.example --country US --hold 2m",
            "  proxypool acquire --label type=residential --session cart-7 --json",
            "  proxypool release l-3kT... --outcome ok --latency 180ms"
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:leased",
            "1:error (server unreachable, unauthorized, ...)",
            "2:usage (bad options, or the server refused the request as invalid)",
            "3:no proxy to lease now (all busy, cooling or none matches)"
        })
final class AcquireCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    RemoteApiOptions remote;

    @Option(names = "--host", paramLabel = "H", description = "Target host: routing, hash key, domain bans.")
    String host;

    @Option(names = "--key", paramLabel = "K", description = "Consistent-hash key (default: the host).")
    String key;

    @Option(names = "--routing", paramLabel = "R", description = "Use this routing instead of the table's choice.")
    String routing;

    @Option(names = "--session", paramLabel = "S", description = "Session id: later leases get the same proxy.")
    String session;

    @Option(
            names = "--hold",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "How long to hold the proxy, e.g. 60s, 5m (default: the server's leaseHold).")
    Duration hold;

    @Option(names = "--protocol", paramLabel = "P", description = "http, https, socks4 or socks5.")
    String protocol;

    @Option(names = "--country", paramLabel = "C", description = "Label country, e.g. US.")
    String country;

    @Option(names = "--upstream", paramLabel = "U", description = "Only proxies of this upstream.")
    String upstream;

    @Option(names = "--label", paramLabel = "KEY=VALUE", description = "A required label; repeatable.")
    Map<String, String> labels = new LinkedHashMap<>();

    @Option(
            names = "--idempotency-key",
            paramLabel = "K",
            description = "Retry-safe key: the same key and options return the first lease instead of a new one.")
    String idempotencyKey;

    @Option(names = "--json", description = "Print one JSON object for scripts (it includes the URL).")
    boolean json;

    @Option(names = "--show-urls", description = "Add the proxy URL, credentials included, to the table.")
    boolean showUrls;

    @Override
    public Integer call() {
        LeaseRequest request;
        DistributionClient client;
        try {
            request = request();
            client = remote.client();
        } catch (IllegalArgumentException e) {
            return CliErrors.fail(spec, Main.EXIT_USAGE, e.getMessage(), e);
        }
        try (client) {
            print(client.acquire(request));
            return Main.EXIT_OK;
        } catch (DistributionException e) {
            if (json) {
                printError(spec, e);
            }
            return CliErrors.fail(spec, exitCode(e), e.getMessage(), e);
        }
    }

    /** The exit code of an API error, for the lease commands. */
    static int exitCode(DistributionException e) {
        return switch (e) {
            case DistributionException.NothingToLease n -> Main.EXIT_PARTIAL;
            case DistributionException.InvalidRequest i -> Main.EXIT_USAGE;
            default -> Main.EXIT_ERROR;
        };
    }

    /** For scripts: the error as JSON on stdout too (the one-line message goes to stderr). */
    static void printError(CommandSpec spec, DistributionException e) {
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", e.errorCode().isEmpty() ? "unexpected_response" : e.errorCode());
        body.put("status", e.status());
        body.put("message", e.getMessage());
        out.println(JsonCodec.write(body));
        out.flush();
    }

    private LeaseRequest request() {
        LeaseRequest r = LeaseRequest.any();
        if (host != null) {
            r = r.host(host);
        }
        if (key != null) {
            r = r.key(key);
        }
        if (routing != null) {
            r = r.routing(routing);
        }
        if (session != null) {
            r = r.session(session);
        }
        if (hold != null) {
            r = r.hold(hold);
        }
        if (protocol != null) {
            r = r.protocol(Protocol.parse(protocol));
        }
        if (country != null) {
            r = r.country(country);
        }
        if (upstream != null) {
            r = r.upstream(upstream);
        }
        for (Map.Entry<String, String> label : labels.entrySet()) {
            r = r.label(label.getKey(), label.getValue());
        }
        if (idempotencyKey != null) {
            r = r.idempotencyKey(idempotencyKey);
        }
        return r;
    }

    private void print(RemoteLease l) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("leaseId", l.leaseId());
            m.put("state", l.state());
            m.put("proxyId", l.proxyId());
            m.put("url", l.url());
            m.put("protocol", l.protocol().wireName());
            m.put("host", l.host());
            m.put("port", l.port());
            m.put("upstream", l.upstream());
            m.put("routing", l.routing());
            m.put("labels", new TreeMap<>(l.labels()));
            m.put("session", l.session().orElse(null));
            m.put("acquiredAt", l.acquiredAt().toString());
            m.put("expiresAt", l.expiresAt().toString());
            m.put("replayed", l.replayed());
            out.println(JsonCodec.write(m));
        } else {
            Table t = showUrls
                    ? new Table("LEASE", "PROXY", "HOST", "PROTOCOL", "UPSTREAM", "EXPIRES", "URL")
                    : new Table("LEASE", "PROXY", "HOST", "PROTOCOL", "UPSTREAM", "EXPIRES");
            String address = AddressMask.mask(l.host()) + ":" + l.port();
            if (showUrls) {
                t.row(
                        l.leaseId(),
                        l.proxyId(),
                        address,
                        l.protocol().wireName(),
                        l.upstream(),
                        l.expiresAt().toString(),
                        l.url());
            } else {
                t.row(
                        l.leaseId(),
                        l.proxyId(),
                        address,
                        l.protocol().wireName(),
                        l.upstream(),
                        l.expiresAt().toString());
            }
            t.print(out);
            out.println("leased until " + l.expiresAt() + (l.replayed() ? " (replayed answer)" : "")
                    + "; release with: proxypool release " + l.leaseId() + " --outcome ok");
        }
        out.flush();
    }
}
