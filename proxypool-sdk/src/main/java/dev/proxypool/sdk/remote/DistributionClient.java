package dev.proxypool.sdk.remote;

import dev.proxypool.sdk.Extraction;
import dev.proxypool.sdk.ExtractionResponse;
import dev.proxypool.sdk.tls.PemFiles;
import dev.proxypool.sdk.tls.TlsDefaults;
import dev.proxypool.sdk.tls.TlsFileException;
import io.helidon.common.tls.Tls;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.HttpClientRequest;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.WebClient;
import io.helidon.webclient.api.WebClientConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

/**
 * A client of a running server's Distribution API ({@code POST /v1/extractions}, docs/design.md#extraction, docs/api.md):
 *
 * <pre>{@code
 * try (DistributionClient client = DistributionClient.builder(URI.create("http://127.0.0.1:9090"))
 *         .token(System.getenv("PROXYPOOL_TOKEN")).build()) {
 *     ExtractionResponse r = client.extract(Extraction.of(5).protocol(HTTP).country("US"));
 *     r.proxies().forEach(p -> use(p.url()));
 * }
 * }</pre>
 *
 * Every error the API defines comes back as a case of the sealed {@link DistributionException};
 * a server that does not answer (connection refused, timeout) as
 * {@link DistributionException.ServerUnreachable}. A call is never retried by the client: an
 * extraction is irreversible, so a retry after an unknown outcome must carry an
 * {@link Extraction#idempotencyKey(String) Idempotency-Key} to be safe, and that choice is the caller's.
 *
 * <p>Built on Helidon WebClient (blocking; meant for virtual threads), no redirects (a redirect could
 * carry the token elsewhere), a connect and a read timeout. Thread-safe; one client may serve many
 * threads and keeps connections alive. The token never appears in messages or {@link #toString()}.
 */
public final class DistributionClient implements AutoCloseable {

    /** The Distribution API path under the base URI. */
    public static final String PATH = "/v1/extractions";
    /** The acquire/release API's path under the base URI ({@code /acquire}, {@code /release}, {@code /list}). */
    public static final String LEASE_PATH = "/v1/proxy";
    /** Default connect and read timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** The largest response body read: 1000 proxies take well under 1 MiB. */
    static final int MAX_BODY_BYTES = 8 * 1024 * 1024;

    private static final HeaderName IDEMPOTENCY_KEY = HeaderNames.create("Idempotency-Key");
    private static final HeaderName IDEMPOTENT_REPLAYED = HeaderNames.create("Idempotent-Replayed");

    private final URI apiBase;
    private final URI endpoint;
    private final String authorization;
    private final Duration timeout;
    private final WebClient client;

    private DistributionClient(Builder b) {
        this.apiBase = b.apiBase;
        this.endpoint = endpoint(b.apiBase);
        this.authorization = "Bearer " + b.token;
        this.timeout = b.timeout;
        WebClientConfig.Builder wb = WebClient.builder()
                .connectTimeout(timeout)
                .readTimeout(timeout)
                .followRedirects(false)
                // the certificate is checked against the host as given, an IP address included
                .dnsResolver(AddressAsGiven.INSTANCE);
        if (b.sslContext != null) {
            // host names are still checked against the certificate (endpoint identification HTTPS)
            wb.tls(Tls.builder()
                    .sslContext(b.sslContext)
                    .enabledProtocols(TlsDefaults.PROTOCOLS)
                    .endpointIdentificationAlgorithm("HTTPS")
                    .build());
        }
        this.client = wb.build();
    }

    /**
     * A builder for the server whose REST listener is at {@code apiBase}, e.g.
     * {@code http://127.0.0.1:9090} (a path prefix is kept: {@code https://lb.example/pp} →
     * {@code https://lb.example/pp/v1/extractions}).
     *
     * @param apiBase the REST listener's base URI
     * @return a new builder
     */
    public static Builder builder(URI apiBase) {
        return new Builder(apiBase);
    }

    /**
     * The base URI given to the builder.
     *
     * @return the API base
     */
    public URI apiBase() {
        return apiBase;
    }

    /**
     * The full extraction URI.
     *
     * @return the endpoint
     */
    public URI endpoint() {
        return endpoint;
    }

    /**
     * The connect and read timeout.
     *
     * @return the timeout
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Extracts proxies: the same {@link Extraction} and {@link ExtractionResponse} as
     * {@link dev.proxypool.sdk.ProxyPool#extract(Extraction)} in process. They leave the pool for
     * good; a partial call may return fewer than asked ({@link ExtractionResponse#complete()} is
     * false), an allOrNothing call throws {@link DistributionException.InsufficientProxies} instead.
     * The extraction's idempotency key goes out as {@code Idempotency-Key}.
     *
     * @param call what to extract
     * @return the extracted proxies
     * @throws DistributionException    one case per error response, or {@code ServerUnreachable}
     * @throws IllegalArgumentException when the extraction sets a {@code maxHealthAge} (not part of
     *                                  the Distribution API)
     */
    public ExtractionResponse extract(Extraction call) {
        Objects.requireNonNull(call, "call");
        byte[] body = RemoteJson.requestBody(call);
        Exchange x = exchange("POST", endpoint, body, call.idempotencyKey().orElse(null));
        try {
            return RemoteJson.response(x.body(), x.replayed());
        } catch (RemoteJson.Malformed e) {
            throw new DistributionException.UnexpectedResponse(200, "", e.getMessage());
        }
    }

    /**
     * Leases a proxy ({@code POST /v1/proxy/acquire}): the proxy stays in the pool, the lease holds one
     * unit of its capacity until {@link #release} or its {@code expiresAt}. Use {@link RemoteLease#url()}
     * directly; report how it went with {@link #release}. The request's idempotency key goes out as
     * {@code Idempotency-Key}: a retry with it returns the same lease.
     *
     * @param request what to lease
     * @return the lease
     * @throws DistributionException {@link DistributionException.NothingToLease} when no proxy qualifies
     *                               now, one case per other error response, or {@code ServerUnreachable}
     */
    public RemoteLease acquire(LeaseRequest request) {
        Objects.requireNonNull(request, "request");
        Exchange x = exchange(
                "POST",
                under(LEASE_PATH + "/acquire"),
                RemoteJson.acquireBody(request),
                request.idempotencyKey().orElse(null));
        try {
            return RemoteJson.lease(x.body(), x.replayed());
        } catch (RemoteJson.Malformed e) {
            throw new DistributionException.UnexpectedResponse(200, "", e.getMessage());
        }
    }

    /**
     * Releases a lease with its outcome ({@code POST /v1/proxy/release}), which feeds the proxy's
     * health as the gateway's outcomes do. Releasing twice is safe: the second answer says
     * {@link ReleaseReceipt#alreadyReleased()} and releases nothing.
     *
     * @param outcome the lease and how its use went
     * @return the receipt
     * @throws DistributionException {@link DistributionException.UnknownLease} for a lease this client
     *                               does not hold there or one already expired, or another case
     */
    public ReleaseReceipt release(LeaseOutcome outcome) {
        Objects.requireNonNull(outcome, "outcome");
        Exchange x = exchange("POST", under(LEASE_PATH + "/release"), RemoteJson.releaseBody(outcome), null);
        try {
            return RemoteJson.receipt(x.body());
        } catch (RemoteJson.Malformed e) {
            throw new DistributionException.UnexpectedResponse(200, "", e.getMessage());
        }
    }

    /**
     * The proxies this client may acquire under {@code selection} ({@code GET /v1/proxy/list}; its
     * routing, host, upstream, protocol and labels), addresses masked, at most {@code limit}.
     *
     * @param selection the selection (its session, hold time and idempotency key are not used)
     * @param limit     1..1000
     * @return the proxies, in the pool's order
     * @throws DistributionException one case per error response, or {@code ServerUnreachable}
     */
    public List<AcquirableProxy> list(LeaseRequest selection, int limit) {
        Objects.requireNonNull(selection, "selection");
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("limit must be between 1 and 1000, got " + limit);
        }
        Exchange x = exchange(
                "GET", URI.create(under(LEASE_PATH + "/list") + RemoteJson.listQuery(selection, limit)), null, null);
        try {
            return RemoteJson.listed(x.body());
        } catch (RemoteJson.Malformed e) {
            throw new DistributionException.UnexpectedResponse(200, "", e.getMessage());
        }
    }

    /** A {@code 200} answer's body and whether it is an idempotent replay. */
    private record Exchange(byte[] body, boolean replayed) {}

    /** One call; any answer but {@code 200} becomes its {@link DistributionException}. */
    private Exchange exchange(String method, URI uri, byte[] body, String idempotencyKey) {
        HttpClientRequest request = (method.equals("GET") ? client.get() : client.post())
                .uri(uri)
                .header(HeaderNames.AUTHORIZATION, authorization)
                .header(HeaderNames.ACCEPT, "application/json");
        if (body != null) {
            request.header(HeaderNames.CONTENT_TYPE, "application/json");
        }
        if (idempotencyKey != null) {
            request.header(IDEMPOTENCY_KEY, idempotencyKey);
        }
        try (HttpClientResponse response = body != null ? request.submit(body) : request.request()) {
            int status = response.status().code();
            byte[] answer = read(response);
            if (status == 200) {
                boolean replayed = response.headers()
                        .first(IDEMPOTENT_REPLAYED)
                        .map(v -> v.equalsIgnoreCase("true"))
                        .orElse(false);
                return new Exchange(answer, replayed);
            }
            if (response.headers()
                    .first(GATEWAY_ERROR)
                    .map(GATEWAY_ORIGIN_FORM::equals)
                    .orElse(false)) {
                throw new DistributionException.UnexpectedResponse(
                        status,
                        GATEWAY_ORIGIN_FORM,
                        apiBase
                                + " is the gateway listener (a forward proxy), not the REST API: use the server's API port"
                                + " (server.apiPort, default 9090)");
            }
            long retryAfter = response.headers()
                    .first(HeaderNames.RETRY_AFTER)
                    .map(DistributionClient::seconds)
                    .orElse(-1L);
            throw RemoteJson.error(status, answer, retryAfter);
        } catch (DistributionException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new DistributionException.ServerUnreachable(apiBase, reason(e), e);
        }
    }

    private URI under(String path) {
        String s = apiBase.toString();
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        return URI.create(s + path);
    }

    /** The gateway's error header, and its code for a request that is not proxy-shaped (this client's, sent to the gateway port). */
    private static final HeaderName GATEWAY_ERROR = HeaderNames.create("X-ProxyPool-Error");

    private static final String GATEWAY_ORIGIN_FORM = "origin_form_not_allowed";

    private static byte[] read(HttpClientResponse response) {
        try (InputStream in = response.inputStream()) {
            byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
            if (bytes.length > MAX_BODY_BYTES) {
                throw new DistributionException.UnexpectedResponse(
                        response.status().code(), "", "response body exceeds " + MAX_BODY_BYTES + " bytes");
            }
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long seconds(String retryAfter) {
        try {
            return Long.parseLong(retryAfter.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** One phrase for a failure to get a response: {@code connection refused}, {@code timed out after 10 s}. */
    String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof NoRouteToHostException) {
                return "no route to host";
            }
            if (t instanceof ConnectException) {
                String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
                return m.contains("timed out") ? "timed out after " + timeout.toMillis() + " ms" : "connection refused";
            }
            if (t instanceof SocketTimeoutException
                    || t.getClass().getSimpleName().contains("Timeout")) {
                return "timed out after " + timeout.toMillis() + " ms";
            }
            if (t instanceof UnknownHostException) {
                return "unknown host " + endpoint.getHost();
            }
            if (t instanceof SSLException) {
                return "TLS failed: " + firstLine(t.getMessage());
            }
            if (t instanceof SocketException) {
                return "connection failed: " + firstLine(t.getMessage());
            }
        }
        return firstLine(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    }

    private static String firstLine(String m) {
        if (m == null) {
            return "no detail";
        }
        int nl = m.indexOf('\n');
        String s = nl < 0 ? m : m.substring(0, nl);
        return s.length() > 160 ? s.substring(0, 160) + "..." : s;
    }

    static URI endpoint(URI base) {
        String s = base.toString();
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        return URI.create(s + PATH);
    }

    @Override
    public void close() {
        client.closeResource();
    }

    /** The base URI and timeout; never the token. */
    @Override
    public String toString() {
        return "DistributionClient[" + endpoint + ", timeout " + timeout.toMillis() + " ms]";
    }

    /** Options of a {@link DistributionClient}; the token is required. Not thread-safe. */
    public static final class Builder {
        private final URI apiBase;
        private String token;
        private Duration timeout = DEFAULT_TIMEOUT;
        private SSLContext sslContext;

        private Builder(URI apiBase) {
            if (apiBase == null
                    || apiBase.getScheme() == null
                    || apiBase.getHost() == null
                    || !(apiBase.getScheme().equalsIgnoreCase("http")
                            || apiBase.getScheme().equalsIgnoreCase("https"))) {
                throw new IllegalArgumentException(
                        "the API base must be an http:// or https:// URL with a host, got '" + apiBase + "'");
            }
            if (apiBase.getRawQuery() != null || apiBase.getRawFragment() != null || apiBase.getRawUserInfo() != null) {
                throw new IllegalArgumentException("the API base must not carry a query, fragment or user info, got '"
                        + apiBase.getScheme() + "://" + apiBase.getHost() + "...'");
            }
            this.apiBase = apiBase;
        }

        /**
         * The client's bearer token ({@code clients[].token}); required.
         *
         * @param t the token
         * @return this builder
         */
        public Builder token(String t) {
            if (t == null || t.isBlank()) {
                throw new IllegalArgumentException("the client token must not be blank");
            }
            for (int i = 0; i < t.length(); i++) {
                char c = t.charAt(i);
                if (c <= ' ' || c > 0x7E) {
                    throw new IllegalArgumentException("the client token must be printable ASCII without spaces");
                }
            }
            this.token = t.trim();
            return this;
        }

        /**
         * Trusts exactly the certificates of a PEM file for an {@code https://} API (a private CA, or
         * the server's own self-signed certificate) instead of the JVM's default trust store; the
         * server's host name must still match its certificate.
         *
         * @param pemFile the trusted certificates ({@code --cacert} of the CLI)
         * @return this builder
         * @throws IllegalArgumentException naming the file when it is missing or holds no certificate
         */
        public Builder trustCertificates(Path pemFile) {
            try {
                this.sslContext = PemFiles.trusting(Objects.requireNonNull(pemFile, "pemFile"));
            } catch (TlsFileException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
            return this;
        }

        /**
         * The TLS context for an {@code https://} API (trust store, client certificate); default: the
         * JVM's default context.
         *
         * @param context the context
         * @return this builder
         */
        public Builder sslContext(SSLContext context) {
            this.sslContext = Objects.requireNonNull(context, "context");
            return this;
        }

        /**
         * Connect and read timeout; default 10 s.
         *
         * @param d 1 ms..10 min
         * @return this builder
         */
        public Builder timeout(Duration d) {
            if (d == null || d.toMillis() < 1 || d.compareTo(Duration.ofMinutes(10)) > 0) {
                throw new IllegalArgumentException("timeout must be between 1 ms and 10 min, got " + d);
            }
            this.timeout = d;
            return this;
        }

        /**
         * The client.
         *
         * @return the client
         * @throws IllegalArgumentException when no token was given
         */
        public DistributionClient build() {
            if (token == null) {
                throw new IllegalArgumentException("the client token is required (token(...))");
            }
            return new DistributionClient(this);
        }
    }
}
