package dev.proxypool.cli;

import dev.proxypool.cli.bench.BenchResult;
import dev.proxypool.cli.bench.GatewayClient;
import dev.proxypool.cli.bench.LoadRun;
import dev.proxypool.core.time.Clocks;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "gateway",
        mixinStandardHelpOptions = true,
        description = {
            "GET --url through the gateway at --proxy from N keep-alive connections.",
            "http URLs go in absolute form, https URLs through one CONNECT tunnel per",
            "connection. Latency percentiles are of successful (2xx/3xx) requests;",
            "errors are counted by kind: http_<status>[_<X-ProxyPool-Error>],",
            "connect_refused, timeout, closed, reset, tls, protocol.",
            "Progress every second on stderr; the result on stdout."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool bench gateway --proxy http://127.0.0.1:8080 \\",
            "      --url http://127.0.0.1:8081/ --connections 50 --duration 10s",
            "  proxypool bench gateway --url https://127.0.0.1:8443/ --insecure --json",
            "  proxypool bench gateway --url http://shop.example/ --user alice:$SECRET"
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:finished, at least one request succeeded", "1:no request succeeded", "2:usage (bad options)"
        })
final class BenchGatewayCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--proxy",
            paramLabel = "URL",
            defaultValue = "http://127.0.0.1:8080",
            description = "The gateway (default ${DEFAULT-VALUE}).")
    String proxy;

    @Option(
            names = "--url",
            required = true,
            paramLabel = "URL",
            description = "What to request (http:// or https://).")
    String url;

    @Option(
            names = "--connections",
            paramLabel = "N",
            defaultValue = "50",
            description = "Concurrent connections (default ${DEFAULT-VALUE}, at most 10000).")
    int connections;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            defaultValue = "10s",
            description = "How long (default ${DEFAULT-VALUE}, at most 1h).")
    Duration duration;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            defaultValue = "10s",
            description = "Connect and read timeout of one request (default ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--user", paramLabel = "NAME:SECRET", description = "Proxy-Authorization (Basic) for the gateway.")
    String user;

    @Option(names = "--insecure", description = "Trust any certificate of an https --url (self-signed test origins).")
    boolean insecure;

    @Option(names = "--json", description = "Print one JSON object for scripts.")
    boolean json;

    @Override
    public Integer call() throws InterruptedException {
        InetSocketAddress proxyAddress;
        URI target;
        SSLSocketFactory tls;
        try {
            proxyAddress = proxyAddress(proxy);
            target = target(url);
            if (user != null && user.indexOf(':') < 0) {
                throw new IllegalArgumentException("--user must be NAME:SECRET");
            }
            if (timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("--timeout must be positive");
            }
            tls = insecure ? trustAll() : SSLContext.getDefault().getSocketFactory();
        } catch (IllegalArgumentException e) {
            return CliErrors.fail(spec, Main.EXIT_USAGE, e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            return CliErrors.fail(spec, Main.EXIT_ERROR, "no TLS: " + e.getMessage(), e);
        }
        BenchResult r;
        try {
            r = LoadRun.run(
                    connections,
                    duration,
                    timeout.plusSeconds(1),
                    Clocks.monotonic(),
                    i -> {
                        GatewayClient c = new GatewayClient(proxyAddress, target, user, timeout, tls);
                        return new LoadRun.Worker() {
                            @Override
                            public String attempt() {
                                return c.attempt();
                            }

                            @Override
                            public void close() {
                                c.close();
                            }
                        };
                    },
                    line -> {
                        spec.commandLine().getErr().println(line);
                        spec.commandLine().getErr().flush();
                    });
        } catch (IllegalArgumentException e) {
            return CliErrors.fail(spec, Main.EXIT_USAGE, e.getMessage(), e);
        }
        String what = target + " via " + proxyAddress.getHostString() + ":" + proxyAddress.getPort();
        return BenchOutput.print(spec, json, "gateway", what, r, Map.of());
    }

    static InetSocketAddress proxyAddress(String s) {
        URI u;
        try {
            u = URI.create(s.contains("://") ? s : "http://" + s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--proxy: '" + s + "' is not host:port or http://host:port");
        }
        if (!"http".equalsIgnoreCase(u.getScheme()) || u.getHost() == null || u.getRawUserInfo() != null) {
            throw new IllegalArgumentException(
                    "--proxy must be http://host:port (credentials go in --user), got '" + s + "'");
        }
        InetSocketAddress a = new InetSocketAddress(u.getHost(), u.getPort() > 0 ? u.getPort() : 8080);
        if (a.isUnresolved()) {
            throw new IllegalArgumentException("--proxy: host '" + u.getHost() + "' does not resolve");
        }
        return a;
    }

    static URI target(String s) {
        URI u;
        try {
            u = URI.create(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--url: '" + s + "' is not a URL");
        }
        if (u.getScheme() == null
                || u.getHost() == null
                || !(u.getScheme().equalsIgnoreCase("http") || u.getScheme().equalsIgnoreCase("https"))) {
            throw new IllegalArgumentException("--url must be an http:// or https:// URL with a host, got '" + s + "'");
        }
        return u;
    }

    /** What {@code --insecure} (and {@code curl -k}) does: TLS that accepts any server certificate. */
    static SSLSocketFactory trustAll() throws GeneralSecurityException {
        TrustManager[] any = {
            new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {}

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {}

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }
        };
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, any, null);
        return ctx.getSocketFactory();
    }
}
