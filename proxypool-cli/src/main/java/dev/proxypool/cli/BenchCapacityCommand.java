package dev.proxypool.cli;

import dev.proxypool.cli.bench.capacity.CapacityReport;
import dev.proxypool.cli.bench.capacity.CapacityResult;
import dev.proxypool.cli.bench.capacity.CapacityRun;
import dev.proxypool.cli.bench.capacity.GatewayTarget;
import dev.proxypool.cli.bench.capacity.ProfileFile;
import dev.proxypool.cli.bench.capacity.Slo;
import dev.proxypool.cli.bench.capacity.TrafficProfile;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.json.JsonCodec;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLSocketFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "capacity",
        mixinStandardHelpOptions = true,
        description = {
            "Find measured_worker_qps: the highest open-loop rate one worker serves within an SLO.",
            "Fixed arrival rates, stepped up, of a production-like mix of CONNECT tunnels,",
            "keep-alive HTTP and SOCKS5 through the gateway, to local upstream proxies it starts",
            "itself with a simulated round trip and failures, until the SLO breaks (added-latency",
            "P99, error rate). Latency counts from each arrival's scheduled time (no coordinated",
            "omission); added latency = end to end minus the round trip the upstream reports.",
            "Without --gateway it starts a gateway in this process (generated config, or --config).",
            "Progress on stderr, the table or --json on stdout."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool bench capacity                       # the default profile, own gateway",
            "  proxypool bench capacity --start-rate 100 --step 100 --step-duration 20s --max-rate 3000",
            "  proxypool bench capacity --profile mix.yaml --p99 250ms --max-error-rate 0.1%% --json",
            "  proxypool bench capacity --gateway 127.0.0.1:8080 --socks 127.0.0.1:1080 \\",
            "      --api http://127.0.0.1:9090 --user alice:$SECRET --worker-pid $(pgrep -f serve)",
            "",
            "See docs/runbook.md, \"Sizing\", for how to read the result."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:measured_worker_qps found (at least one step met the SLO)",
            "1:the SLO was not met at any step, or an error",
            "2:usage (bad options, a remote target without --allow-remote-target)"
        })
final class BenchCapacityCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--profile", paramLabel = "FILE", description = "Traffic profile (flat YAML; flags win).")
    Path profileFile;

    @Option(names = "--connect-share", paramLabel = "SHARE", description = "CONNECT tunnels (default 0.70).")
    String connectShare;

    @Option(names = "--http-share", paramLabel = "SHARE", description = "Plain-HTTP requests (default 0.25).")
    String httpShare;

    @Option(names = "--socks-share", paramLabel = "SHARE", description = "SOCKS5 tunnels (default 0.05).")
    String socksShare;

    @Option(
            names = "--requests-per-connection",
            paramLabel = "N",
            description = "Keep-alive reuse of an HTTP client connection (default 10).")
    String requestsPerConnection;

    @Option(names = "--request-bytes", paramLabel = "N", description = "Request payload (default 512).")
    String requestBytes;

    @Option(names = "--response-bytes", paramLabel = "N", description = "Response payload (default 4096).")
    String responseBytes;

    @Option(
            names = "--tunnel-duration",
            paramLabel = "DURATION",
            description = "A tunnel stays open this long after its exchange (default 1s).")
    String tunnelDuration;

    @Option(names = "--sticky-share", paramLabel = "SHARE", description = "Arrivals with a sticky session (default 0).")
    String stickyShare;

    @Option(
            names = "--rtt",
            paramLabel = "DIST",
            description = "Upstream round trip: fixed:200ms, uniform:50ms-400ms, lognormal:MEDIAN,P99"
                    + " (default lognormal:200ms,1500ms).")
    String rtt;

    @Option(names = "--refuse-share", paramLabel = "SHARE", description = "Upstream refusals (default 0.01).")
    String refuseShare;

    @Option(
            names = "--reset-share",
            paramLabel = "SHARE",
            description = "Upstream resets after the request (default 0).")
    String resetShare;

    @Option(names = "--slow-share", paramLabel = "SHARE", description = "Upstream slow bodies, +5 s (default 0).")
    String slowShare;

    @Option(names = "--tls", negatable = true, description = "TLS on the gateway listener (default on).")
    Boolean tls;

    @Option(names = "--auth", negatable = true, description = "Client credentials on every request (default on).")
    Boolean auth;

    @Option(names = "--start-rate", paramLabel = "RATE", defaultValue = "50", description = "First step, arrivals/s.")
    double startRate;

    @Option(names = "--step", paramLabel = "RATE", defaultValue = "50", description = "Added per step (0: one step).")
    double step;

    @Option(
            names = "--step-duration",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            defaultValue = "10s",
            description = "How long each step offers its rate (default ${DEFAULT-VALUE}).")
    Duration stepDuration;

    @Option(
            names = "--warmup",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            defaultValue = "10s",
            description = "Unjudged first period at --start-rate (JIT, pools; default ${DEFAULT-VALUE}, 0 for none).")
    Duration warmup;

    @Option(names = "--max-rate", paramLabel = "RATE", defaultValue = "5000", description = "No step above it.")
    double maxRate;

    @Option(names = "--max-steps", paramLabel = "N", defaultValue = "30", description = "At most N steps (<= 100).")
    int maxSteps;

    @Option(
            names = "--max-time",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            defaultValue = "30m",
            description = "No step starts after this (default ${DEFAULT-VALUE}, at most 2h).")
    Duration maxTime;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            defaultValue = "10s",
            description = "Connect and read timeout of one exchange (default ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(
            names = "--max-in-flight",
            paramLabel = "N",
            defaultValue = "20000",
            description = "Arrivals running at once; more fail as client_backlog (default ${DEFAULT-VALUE}).")
    int maxInFlight;

    @Option(
            names = "--p99",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            defaultValue = "250ms",
            description = "SLO: P99 of the added latency (default ${DEFAULT-VALUE}).")
    Duration p99;

    @Option(
            names = "--max-error-rate",
            paramLabel = "RATE",
            defaultValue = "0.1%",
            description = "SLO: errors per arrival, 0.001 or 0.1%% (default ${DEFAULT-VALUE}).")
    String maxErrorRate;

    @Option(names = "--upstreams", paramLabel = "N", defaultValue = "10", description = "Simulated upstream proxies.")
    int upstreamCount;

    @Option(names = "--gateway", paramLabel = "HOST:PORT", description = "Drive this running gateway.")
    String gateway;

    @Option(names = "--socks", paramLabel = "HOST:PORT", description = "Its SOCKS5 listener (with --gateway).")
    String socks;

    @Option(names = "--api", paramLabel = "URL", description = "Its REST API: /observe/health is checked first.")
    String api;

    @Option(names = "--user", paramLabel = "NAME:SECRET", description = "Client credentials (with --gateway).")
    String user;

    @Option(
            names = "--worker-pid",
            paramLabel = "PID",
            description = "Read CPU and RSS of this process (with --gateway).")
    Long workerPid;

    @Option(names = "--config", paramLabel = "FILE", description = "Start the gateway from this config instead.")
    Path config;

    @Option(names = "--allow-remote-target", description = "Allow a --gateway that is not this machine.")
    boolean allowRemote;

    @Option(names = "--json", description = "Print one JSON object for scripts.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
        TrafficProfile profile;
        Slo slo;
        CapacityRun.Settings settings;
        try {
            Map<String, String> values = new LinkedHashMap<>();
            if (profileFile != null) {
                values.putAll(ProfileFile.read(profileFile));
            }
            put(values, "connect", connectShare);
            put(values, "http", httpShare);
            put(values, "socks", socksShare);
            put(values, "requestsPerConnection", requestsPerConnection);
            put(values, "requestBytes", requestBytes);
            put(values, "responseBytes", responseBytes);
            put(values, "tunnelDuration", tunnelDuration);
            put(values, "sticky", stickyShare);
            put(values, "rtt", rtt);
            put(values, "refuseShare", refuseShare);
            put(values, "resetShare", resetShare);
            put(values, "slowShare", slowShare);
            put(values, "tls", tls == null ? null : tls.toString());
            put(values, "auth", auth == null ? null : auth.toString());
            profile = ProfileFile.resolve(values);
            slo = new Slo(p99, rate(maxErrorRate));
            if (gateway != null && config != null) {
                throw new IllegalArgumentException("--gateway drives a running gateway, --config starts one: not both");
            }
            if (gateway == null && (socks != null || user != null || workerPid != null)) {
                throw new IllegalArgumentException("--socks, --user and --worker-pid go with --gateway");
            }
            if (upstreamCount < 1 || upstreamCount > 1000) {
                throw new IllegalArgumentException("--upstreams must be 1..1000");
            }
            settings = new CapacityRun.Settings(
                    startRate,
                    step,
                    stepDuration,
                    maxRate,
                    maxSteps,
                    maxTime,
                    timeout,
                    maxInFlight,
                    slo,
                    gateway == null ? ProcessHandle.current().pid() : workerPid == null ? -1 : workerPid,
                    warmup);
            if (gateway != null) {
                GatewayTarget.checkLocal(BenchGatewayCommand.proxyAddress(gateway), allowRemote, "--gateway");
                if (socks != null) {
                    GatewayTarget.checkLocal(BenchGatewayCommand.proxyAddress(socks), allowRemote, "--socks");
                }
                if (api != null) {
                    URI a = URI.create(api);
                    GatewayTarget.checkLocal(
                            new InetSocketAddress(a.getHost(), a.getPort() > 0 ? a.getPort() : 80),
                            allowRemote,
                            "--api");
                }
                if (user != null && user.indexOf(':') < 0) {
                    throw new IllegalArgumentException("--user must be NAME:SECRET");
                }
            }
        } catch (IllegalArgumentException e) {
            return CliErrors.fail(spec, Main.EXIT_USAGE, e.getMessage(), e);
        }
        SSLSocketFactory tlsFactory;
        try {
            tlsFactory = profile.tls() ? BenchGatewayCommand.trustAll() : null;
        } catch (GeneralSecurityException e) {
            return CliErrors.fail(spec, Main.EXIT_ERROR, "no TLS: " + e.getMessage(), e);
        }
        PrintWriter err = spec.commandLine().getErr();
        CapacityRig rig;
        GatewayTarget target;
        String described;
        try {
            if (gateway != null) {
                if (api != null) {
                    checkHealth(api);
                }
                rig = CapacityRig.upstreams(profile, upstreamCount);
                String[] cred = user == null ? null : user.split(":", 2);
                target = new GatewayTarget(
                        BenchGatewayCommand.proxyAddress(gateway),
                        socks == null ? null : BenchGatewayCommand.proxyAddress(socks),
                        tlsFactory,
                        cred == null ? null : cred[0],
                        cred == null ? null : cred[1]);
                described = gateway;
            } else {
                rig = CapacityRig.withGateway(profile, upstreamCount, config);
                int socksPort = rig.server().socksPort();
                target = new GatewayTarget(
                        new InetSocketAddress("127.0.0.1", rig.server().gatewayPort()),
                        socksPort < 0 ? null : new InetSocketAddress("127.0.0.1", socksPort),
                        tlsFactory,
                        profile.auth() ? CapacityRig.CLIENT : null,
                        profile.auth() ? CapacityRig.CLIENT_SECRET : null);
                described = "in-process gateway 127.0.0.1:" + rig.server().gatewayPort()
                        + (config == null ? " (generated config)" : " (" + config + ")");
            }
        } catch (IOException | RuntimeException e) {
            return CliErrors.fail(spec, Main.EXIT_ERROR, "cannot start: " + e.getMessage(), e);
        }
        if (profile.socksShare() > 0 && target.socks() == null) {
            rig.close();
            return CliErrors.fail(
                    spec,
                    Main.EXIT_USAGE,
                    "the profile has SOCKS5 arrivals but the gateway has no SOCKS5 listener"
                            + " (give --socks, or --socks-share 0)",
                    null);
        }
        err.println(
                "bench capacity: " + described + "; " + rig.simUpstreams().size() + " simulated upstreams on 127.0.0.1:"
                        + rig.simUpstreams().stream()
                                .map(u -> Integer.toString(u.port()))
                                .toList());
        err.println("profile: " + profile.describe());
        err.flush();
        CapacityResult result;
        try (rig) {
            result = new CapacityRun(target, profile, settings, Clocks.monotonic(), line -> {
                        err.println(line);
                        err.flush();
                    })
                    .run();
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JsonCodec.write(CapacityReport.json(described, profile, slo, result)));
        } else {
            out.print(CapacityReport.table(described, profile, slo, result));
        }
        out.flush();
        if (!result.met()) {
            return CliErrors.fail(spec, Main.EXIT_ERROR, "the SLO was not met at any step", null);
        }
        return Main.EXIT_OK;
    }

    private static void put(Map<String, String> values, String key, String v) {
        if (v != null) {
            values.put(key, v);
        }
    }

    static double rate(String s) {
        String t = s.strip();
        try {
            return t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1)) / 100 : Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--max-error-rate: not a rate: '" + s + "' (write 0.001 or 0.1%)");
        }
    }

    private static void checkHealth(String api) throws IOException {
        try (HttpClient c =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            HttpResponse<Void> r = c.send(
                    HttpRequest.newBuilder(URI.create(api.replaceAll("/+$", "") + "/observe/health"))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            if (r.statusCode() != 200) {
                throw new IOException("--api: " + api + "/observe/health answered " + r.statusCode());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
