package dev.proxypool.server.e2e.security;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import javax.net.ssl.SSLSession;

/** A received response with its body replaced (the one field allowed to carry a secret cut out). */
record RedactedResponse(HttpResponse<String> original, String body) implements HttpResponse<String> {

    @Override
    public int statusCode() {
        return original.statusCode();
    }

    @Override
    public HttpRequest request() {
        return original.request();
    }

    @Override
    public Optional<HttpResponse<String>> previousResponse() {
        return original.previousResponse();
    }

    @Override
    public HttpHeaders headers() {
        return original.headers();
    }

    @Override
    public Optional<SSLSession> sslSession() {
        return original.sslSession();
    }

    @Override
    public URI uri() {
        return original.uri();
    }

    @Override
    public HttpClient.Version version() {
        return original.version();
    }
}
