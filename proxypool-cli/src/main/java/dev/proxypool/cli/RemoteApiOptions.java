package dev.proxypool.cli;

import dev.proxypool.sdk.remote.DistributionClient;
import java.net.URI;
import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options every command that calls a server's REST API as a client shares: where, who, how long. */
final class RemoteApiOptions {

    @Option(
            names = "--api",
            paramLabel = "URL",
            defaultValue = "http://127.0.0.1:9090",
            description = "The server's REST listener (default ${DEFAULT-VALUE}).")
    String api;

    @Option(
            names = "--token",
            paramLabel = "T",
            defaultValue = "${env:" + ExtractCommand.TOKEN_ENV + "}",
            description = "Client token (default: the " + ExtractCommand.TOKEN_ENV + " environment variable).")
    String token;

    @Mixin
    CaCertOption caCert;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            defaultValue = "10s",
            description = "Connect and read timeout (default ${DEFAULT-VALUE}).")
    Duration timeout;

    /**
     * The client.
     *
     * @throws IllegalArgumentException naming the bad option (a usage error)
     */
    DistributionClient client() {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("no token: pass --token or set " + ExtractCommand.TOKEN_ENV);
        }
        URI uri;
        try {
            uri = URI.create(api.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--api: '" + api + "' is not a URL (e.g. http://127.0.0.1:9090)");
        }
        return caCert.applyTo(DistributionClient.builder(uri).token(token).timeout(timeout))
                .build();
    }
}
