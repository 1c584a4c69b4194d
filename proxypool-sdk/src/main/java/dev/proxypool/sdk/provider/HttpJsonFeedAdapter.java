package dev.proxypool.sdk.provider;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.proxypool.core.sequential.FetchOutcome;

/**
 * {@code http_json_feed}: an HTTP(S) GET whose answer is a JSON array of records, or an object
 * holding the array at the dotted {@code listField} ({@code data.proxies}). Records are mapped with
 * {@code fields}; an element that is not an object is dropped as {@code malformed_record} with its
 * 1-based element number. Not JSON, or JSON without a list → {@link FetchOutcome.ErrorKind#PARSE}; an
 * empty list → Empty. Settings: {@code url, tokenEnv | username + passwordEnv, timeout, maxBytes,
 * listField, expiresAtFormat}, and the common ones.
 */
final class HttpJsonFeedAdapter implements ProviderAdapter {

    static final String TYPE = "http_json_feed";

    private final SourceFetch fetch;

    HttpJsonFeedAdapter(ProviderConfig config, ProviderEnvironment env) {
        Settings settings = new Settings(config, Settings.remoteAnd("listField"));
        CandidateMapper mapper = new CandidateMapper(config, settings, new FieldMapping(config));
        String listField = settings.get("listField").orElse(null);
        this.fetch = new SourceFetch(config, env, SourceFetch.source(settings, env, false), mapper, (in, out) -> {
            ArrayNode list = JsonRecords.list(JsonRecords.parse(in), listField);
            long n = 0;
            for (var element : list) {
                n++;
                RawRecord r = JsonRecords.element(element);
                if (r == null) {
                    out.malformed(n);
                } else {
                    out.record(n, r);
                }
            }
        });
    }

    @Override
    public FetchReport fetch(FetchContext ctx) {
        return fetch.fetch(ctx);
    }
}
