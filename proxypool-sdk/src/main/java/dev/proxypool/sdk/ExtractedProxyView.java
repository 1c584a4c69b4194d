package dev.proxypool.sdk;

import dev.proxypool.core.model.AddressMask;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One extracted proxy of an {@link ExtractionResponse}: the same immutable value whether it came
 * from {@link ProxyPool#extract(Extraction)} in process or from a server through
 * {@link dev.proxypool.sdk.remote.DistributionClient} (whose JSON fields it mirrors). The {@link #url()}
 * carries the proxy's credentials ({@code scheme://user:pass@host:port}), so {@link #toString()}
 * shows {@link #maskedUrl()} and a masked host only; print {@code url()} on purpose or not at all.
 *
 * @param id                  the opaque proxy id
 * @param url                 ready to use, with percent-encoded credentials when the proxy needs them
 * @param protocol            the proxy's protocol
 * @param host                the proxy's host (never log it unmasked)
 * @param port                the proxy's port
 * @param labels              country, region, type, ... (sorted)
 * @param expiresAt           empty for a proxy that never expires
 * @param remainingTtlSeconds at extraction, whole seconds rounded down; empty when it never expires
 */
public record ExtractedProxyView(
        String id,
        String url,
        Protocol protocol,
        String host,
        int port,
        Map<String, String> labels,
        Optional<Instant> expiresAt,
        OptionalLong remainingTtlSeconds) {

    /**
     * Validates and copies the fields.
     *
     * @throws IllegalArgumentException when a field is null or the port is out of range
     */
    public ExtractedProxyView {
        if (id == null
                || url == null
                || protocol == null
                || host == null
                || labels == null
                || expiresAt == null
                || remainingTtlSeconds == null) {
            throw new IllegalArgumentException("extracted proxy fields must not be null (use empty optionals)");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("extracted proxy port must be 1..65535, got " + port);
        }
        labels = Map.copyOf(labels);
    }

    /**
     * The view of a proxy extracted in process at {@code extractedAt}.
     *
     * @param proxy       the extracted proxy
     * @param url         its URL, with percent-encoded credentials when it needs them
     * @param extractedAt when it left the pool
     * @return the view
     */
    public static ExtractedProxyView of(Proxy proxy, String url, Instant extractedAt) {
        Optional<Instant> expires = proxy.expires() ? Optional.of(proxy.expiresAt()) : Optional.empty();
        OptionalLong remaining = proxy.expires()
                ? OptionalLong.of(Math.max(0, proxy.remainingTtl(extractedAt).toSeconds()))
                : OptionalLong.empty();
        return new ExtractedProxyView(
                proxy.id(),
                url,
                proxy.protocol(),
                proxy.host(),
                proxy.port(),
                proxy.labels().values(),
                expires,
                remaining);
    }

    /**
     * Whether {@link #url()} carries credentials.
     *
     * @return true when the URL has a user-info part
     */
    public boolean hasCredentials() {
        int scheme = url.indexOf("://");
        int at = url.lastIndexOf('@');
        return scheme >= 0 && at > scheme;
    }

    /**
     * {@code http://***@203.0.x.x:8000}: no secret, masked address; safe for logs and tables.
     *
     * @return the masked URL
     */
    public String maskedUrl() {
        String masked = AddressMask.mask(host);
        return protocol.wireName() + "://" + (hasCredentials() ? "***@" : "")
                + (masked.indexOf(':') >= 0 ? "[" + masked + "]" : masked) + ":" + port;
    }

    /**
     * The id, masked URL, labels and expiry; never the credentials or the unmasked host.
     *
     * @return a description safe for logs
     */
    @Override
    public String toString() {
        return "ExtractedProxyView[id=" + id + ", url=" + maskedUrl() + ", labels=" + labels + ", expiresAt="
                + expiresAt.map(Instant::toString).orElse("never") + "]";
    }
}
