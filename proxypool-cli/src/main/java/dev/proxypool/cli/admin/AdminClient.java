package dev.proxypool.cli.admin;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.net.ssl.SSLContext;

/**
 * A small blocking client of a server's admin API ({@code <api>/v1/admin}) over the JDK's
 * {@link HttpClient}: bearer token, JSON bodies, connect and request timeouts. Transport problems
 * become an {@link AdminFailure} (exit 1) with one line naming the server; the token is never in
 * a message. Not thread-safe by contract (one command, one client); close it after use.
 */
final class AdminClient implements AutoCloseable {

    static final String PATH = "/v1/admin";

    private final HttpClient http;
    private final String api;
    private final String token;
    private final Duration timeout;

    AdminClient(String api, String token, Duration timeout) {
        this(api, token, timeout, null);
    }

    /** With {@code tls} (from {@code --cacert}) for an https:// API; null: the JVM's default trust. */
    AdminClient(String api, String token, Duration timeout, SSLContext tls) {
        this.api = api;
        this.token = token;
        this.timeout = timeout;
        HttpClient.Builder b =
                HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER);
        if (tls != null) {
            b.sslContext(tls);
        }
        this.http = b.build();
    }

    /** A path segment (entity name, proxy id) safe to put in a URL. */
    static String segment(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A query parameter value. */
    static String query(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    AdminResponse get(String path) {
        return send("GET", path, null);
    }

    AdminResponse post(String path, String json) {
        return send("POST", path, json);
    }

    AdminResponse put(String path, String json) {
        return send("PUT", path, json);
    }

    AdminResponse delete(String path) {
        return send("DELETE", path, null);
    }

    /** {@code method <api>/v1/admin<path>}; a non-null body is sent as JSON. */
    AdminResponse send(String method, String path, String json) {
        URI uri = URI.create(api + PATH + path);
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json");
        if (json == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        }
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new AdminResponse(r.statusCode(), r.body() == null ? "" : r.body());
        } catch (HttpTimeoutException e) {
            throw new AdminFailure(AdminExit.ERROR, "no answer from " + api + " within " + seconds(timeout), e);
        } catch (ConnectException e) {
            throw new AdminFailure(
                    AdminExit.ERROR,
                    "cannot reach " + api + " (connection refused or timed out;"
                            + " is the server running? --api sets its URL)",
                    e);
        } catch (IOException e) {
            String why = e.getMessage() == null || e.getMessage().isBlank()
                    ? e.getClass().getSimpleName()
                    : e.getMessage();
            throw new AdminFailure(
                    AdminExit.ERROR,
                    "cannot talk to " + api + ": " + why.lines().findFirst().orElse(""),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdminFailure(AdminExit.ERROR, "interrupted while waiting for " + api, e);
        }
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    @Override
    public void close() {
        http.close();
    }
}
