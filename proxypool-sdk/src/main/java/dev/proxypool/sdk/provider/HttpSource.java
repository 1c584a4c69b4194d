package dev.proxypool.sdk.provider;

import dev.proxypool.core.sequential.FetchOutcome;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.HttpClientRequest;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.WebClient;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.OptionalLong;

/**
 * An HTTP(S) GET through Helidon WebClient: connect and read timeouts, bearer or basic auth with
 * the secret read from the environment at fetch time, no redirects (a redirect could carry the
 * token to another host; it is reported as {@link FetchOutcome.ErrorKind#HTTP_STATUS}), a declared
 * {@code Content-Length} over the cap refused before reading, and the body streamed through a
 * {@link CappedInputStream}. Secrets never reach an error detail.
 */
final class HttpSource implements ByteSource {

    private final UrlTemplate url;
    private final String tokenEnv; // null: no bearer token
    private final String username; // null: no basic auth
    private final String passwordEnv;
    private final long maxBytes;
    private final Duration timeout;
    private final ProviderEnvironment env;
    private final WebClient client;

    HttpSource(Settings settings, long maxBytes, ProviderEnvironment env) {
        this.url = new UrlTemplate(settings.key("url"), settings.require("url"));
        this.tokenEnv = settings.get("tokenEnv").orElse(null);
        this.username = settings.get("username").orElse(null);
        this.passwordEnv = settings.get("passwordEnv").orElse(null);
        if (tokenEnv != null && (username != null || passwordEnv != null)) {
            throw new IllegalArgumentException(
                    settings.key("tokenEnv") + ": set either tokenEnv or username/passwordEnv," + " not both");
        }
        if ((username == null) != (passwordEnv == null)) {
            throw new IllegalArgumentException(settings.key(username == null ? "username" : "passwordEnv")
                    + " is required with " + settings.key(username == null ? "passwordEnv" : "username"));
        }
        this.maxBytes = maxBytes;
        this.timeout = settings.duration("timeout", Settings.DEFAULT_TIMEOUT);
        this.env = env;
        this.client = WebClient.builder()
                .connectTimeout(timeout)
                .readTimeout(timeout)
                .followRedirects(false)
                .keepAlive(false)
                .build();
    }

    @Override
    public Opened open(FetchContext ctx, long deadline) throws FetchFailure {
        URI uri = url.fill(ctx.params());
        String authorization = authorization();
        HttpClientRequest request = client.get()
                .uri(uri)
                .readTimeout(timeout)
                .header(HeaderNames.ACCEPT, "application/json, text/plain, text/csv;q=0.9, */*;q=0.5");
        if (authorization != null) {
            request.header(HeaderNames.AUTHORIZATION, authorization);
        }
        HttpClientResponse response;
        try {
            response = request.request();
        } catch (RuntimeException e) {
            throw FetchFailures.network(e);
        }
        int code = response.status().code();
        if (code == 401 || code == 403) {
            response.close();
            throw new FetchFailure(FetchOutcome.ErrorKind.AUTH, "HTTP " + code);
        }
        if (code < 200 || code > 299) {
            response.close();
            throw new FetchFailure(FetchOutcome.ErrorKind.HTTP_STATUS, "HTTP " + code);
        }
        OptionalLong declared = response.headers().contentLength();
        if (declared.isPresent() && declared.getAsLong() > maxBytes) {
            response.close();
            throw new FetchFailure(
                    FetchOutcome.ErrorKind.SIZE_LIMIT,
                    "declared Content-Length " + declared.getAsLong() + " is over maxBytes " + maxBytes);
        }
        try {
            InputStream body = response.inputStream();
            if (declared.isEmpty() && !response.headers().contains(HeaderNames.TRANSFER_ENCODING)) {
                body = new ReadToClose(body); // no length, not chunked: the answer ends when the server closes
            }
            return new Opened(new CappedInputStream(body, maxBytes, env.ticker(), deadline), response);
        } catch (RuntimeException e) {
            response.close();
            throw FetchFailures.network(e);
        }
    }

    private String authorization() throws FetchFailure {
        if (tokenEnv != null) {
            return "Bearer " + secret(tokenEnv);
        }
        if (username != null) {
            String pair = username + ":" + secret(passwordEnv);
            return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
        }
        return null;
    }

    private String secret(String var) throws FetchFailure {
        String v = env.env().get(var);
        if (v == null || v.isBlank()) {
            throw new FetchFailure(FetchOutcome.ErrorKind.AUTH, "environment variable " + var + " is not set");
        }
        return v.trim();
    }
}
