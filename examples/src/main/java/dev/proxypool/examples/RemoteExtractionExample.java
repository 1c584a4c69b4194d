package dev.proxypool.examples;

import dev.proxypool.sdk.remote.DistributionClient;
import dev.proxypool.sdk.remote.DistributionException;
import dev.proxypool.sdk.remote.ExtractedProxyView;
import dev.proxypool.sdk.remote.ExtractionCall;
import dev.proxypool.sdk.remote.ExtractionResponse;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Extracting proxies from a running server with the remote {@link DistributionClient}: exclusive,
 * idempotent (a retry with the same key replays instead of extracting again), typed errors.
 *
 * <p>Run: {@code java ... RemoteExtractionExample http://127.0.0.1:9090 <client token>}
 */
public final class RemoteExtractionExample {

    private RemoteExtractionExample() {
    }

    /** Extracts {@code count} US proxies all-or-nothing; returns their ids, or an empty list when the pool is short. */
    public static List<String> run(URI api, String token, int count, String idempotencyKey) {
        try (DistributionClient client = DistributionClient.builder(api).token(token).timeout(Duration.ofSeconds(10)).build()) {
            ExtractionResponse response = client.extract(ExtractionCall.builder(count).country("US").allOrNothing()
                    .idempotencyKey(idempotencyKey).build());
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
        System.out.println(run(URI.create(args[0]), args[1], 2, "example-" + System.nanoTime()));
    }
}
