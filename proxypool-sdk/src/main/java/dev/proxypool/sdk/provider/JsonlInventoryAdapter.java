package dev.proxypool.sdk.provider;

/**
 * {@code jsonl_inventory}: one JSON object a line in the inventory format of docs/configuration.md#file-formats
 * ({@code host, port, protocol, credentialRef, labels, ttlSeconds | expiresAt, maxConcurrency,
 * weight}), from a {@code path} (or a {@code url}); blank and {@code #} lines are skipped, a line
 * that is not a JSON object is dropped as {@code malformed_record} with its line number.
 * Settings: {@code path | url (+ tokenEnv | username, passwordEnv, timeout)}, and the common ones.
 */
final class JsonlInventoryAdapter implements ProviderAdapter {

    static final String TYPE = "jsonl_inventory";

    private final SourceFetch fetch;

    JsonlInventoryAdapter(ProviderConfig config, ProviderEnvironment env) {
        Settings settings = new Settings(config, Settings.remoteAnd("path"));
        CandidateMapper mapper = new CandidateMapper(config, settings, new FieldMapping(config));
        this.fetch = new SourceFetch(
                config,
                env,
                SourceFetch.source(settings, env, true),
                mapper,
                (in, out) -> Lines.forEach(in, (n, line) -> {
                    if (Lines.skippable(line)) {
                        return;
                    }
                    RawRecord r = JsonRecords.parseObjectLine(line);
                    if (r == null) {
                        out.malformed(n);
                    } else {
                        out.record(n, r);
                    }
                }));
    }

    @Override
    public FetchReport fetch(FetchContext ctx) {
        return fetch.fetch(ctx);
    }
}
