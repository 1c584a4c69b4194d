package dev.proxypool.sdk;

import java.util.List;

/**
 * The answer to one {@link Extraction}, the same immutable type for both paths:
 * {@link ProxyPool#extract(Extraction)} in process and
 * {@link dev.proxypool.sdk.remote.DistributionClient#extract(Extraction)} (a {@code 200} of
 * {@code POST /v1/extractions}, whose JSON fields it mirrors).
 *
 * @param requested the count asked for
 * @param extracted how many came back; fewer than {@code requested} for a partial extraction that
 *                  could not be met in full (possibly 0)
 * @param proxies   the extracted proxies; they left the pool for good
 * @param replayed  true when the server answered from its idempotency record
 *                  ({@code Idempotent-Replayed: true}): nothing was extracted by this call; always
 *                  false in process
 */
public record ExtractionResponse(int requested, int extracted, List<ExtractedProxyView> proxies, boolean replayed) {

    /**
     * Copies the proxies and checks the count.
     *
     * @throws IllegalArgumentException when {@code extracted} is not the number of proxies
     */
    public ExtractionResponse {
        proxies = List.copyOf(proxies);
        if (extracted != proxies.size()) {
            throw new IllegalArgumentException(
                    "extracted is " + extracted + " but " + proxies.size() + " proxies came back");
        }
    }

    /**
     * Whether every requested proxy came back.
     *
     * @return true when nothing is missing
     */
    public boolean complete() {
        return extracted >= requested;
    }
}
