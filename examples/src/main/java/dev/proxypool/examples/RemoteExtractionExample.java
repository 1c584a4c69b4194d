package dev.proxypool.examples;

import dev.proxypool.sdk.ExtractedProxyView;
import dev.proxypool.sdk.Extraction;
import dev.proxypool.sdk.ExtractionResponse;
import dev.proxypool.sdk.remote.DistributionClient;
import dev.proxypool.sdk.remote.DistributionException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Extracting proxies from a running server with the remote {@link DistributionClient}: exclusive,
 * idempotent (a retry with the same key replays instead of extracting again), typed errors. The
 * request and result are the same {@link Extraction} and {@link ExtractionResponse} as an embedded
 * pool's {@code ProxyPool.extract}.
 *
 * <p>Run against {@code proxypool demo}: {@code ./proxypool example remote-extraction}, or
 * {@code java ... RemoteExtractionExample http://127.0.0.1:9090 <client token> [upstream|-] [ca.pem]}
 * (an {@code https://} API whose certificate a private CA signed: the CA's PEM file).
 */
public final class RemoteExtractionExample {

    private RemoteExtractionExample() {}

    /** The line printed when arguments are missing. */
    public static final String USAGE = "usage: RemoteExtractionExample <api-url> <client-token> [upstream|-] [ca.pem]"
            + "  (the demo: http://127.0.0.1:9090 demo-token-0123456789 sessions)";

    /** Extracts {@code count} US proxies all-or-nothing; returns their ids, or an empty list when the pool is short. */
    public static List<String> run(URI api, String token, int count, String idempotencyKey) {
        return run(api, token, count, idempotencyKey, null);
    }

    /** As {@link #run(URI, String, int, String)}, only from {@code upstream} when it is not null. */
    public static List<String> run(URI api, String token, int count, String idempotencyKey, String upstream) {
        return run(api, token, count, idempotencyKey, upstream, null);
    }

    /**
     * As {@link #run(URI, String, int, String, String)}, trusting the certificates of {@code caFile}
     * (PEM) for an {@code https://} API when it is not null.
     */
    public static List<String> run(
            URI api, String token, int count, String idempotencyKey, String upstream, Path caFile) {
        DistributionClient.Builder builder =
                DistributionClient.builder(api).token(token).timeout(Duration.ofSeconds(10));
        if (caFile != null) {
            builder.trustCertificates(caFile);
        }
        try (DistributionClient client = builder.build()) {
            Extraction extraction =
                    Extraction.of(count).country("US").allOrNothing().idempotencyKey(idempotencyKey);
            if (upstream != null) {
                extraction = extraction.upstream(upstream);
            }
            ExtractionResponse response = client.extract(extraction);
            List<String> ids = new ArrayList<>();
            for (ExtractedProxyView p : response.proxies()) {
                ids.add(p.id()); // p.url() carries the credentials: use it to connect, never log it
            }
            return ids;
        } catch (DistributionException.InsufficientProxies short_) {
            return List.of();
        }
    }

    public static void main(String[] args) {
        if (args.length < 2 || args.length > 4) {
            System.err.println(USAGE);
            return;
        }
        String upstream = args.length >= 3 && !args[2].equals("-") ? args[2] : null;
        Path caFile = args.length == 4 ? Path.of(args[3]) : null;
        List<String> ids = run(URI.create(args[0]), args[1], 2, "example-" + System.nanoTime(), upstream, caFile);
        System.out.println(
                ids.isEmpty()
                        ? "not enough US proxies in the pool: nothing extracted"
                        : "extracted for exclusive use (opaque ids): " + ids);
    }
}
