/**
 * Provider adapters: fetching candidates from vendor APIs, public feeds and inventories, and
 * normalizing them into {@link dev.proxypool.core.model.Proxy} (docs/design.md#collection-pipeline, P2–P5; docs/configuration.md#file-formats).
 *
 * <ul>
 *   <li>{@link dev.proxypool.sdk.provider.ProviderRegistry}: adapter types registered in code,
 *       enabled by a config allow-list; {@code jsonl_inventory}, {@code http_json_feed},
 *       {@code text_list}, {@code csv} and {@code session_gateway} (a rotating gateway's sessions,
 *       materialised rather than fetched; docs/providers.md) built in.</li>
 *   <li>{@link dev.proxypool.sdk.provider.ProviderConfig}: one provider's settings and field
 *       mapping (the settings table is there).</li>
 *   <li>{@link dev.proxypool.sdk.provider.ProviderAdapter#fetch}: one upstream fetch →
 *       {@link dev.proxypool.sdk.provider.FetchReport} (candidates, drops by reason, bytes,
 *       duration, {@link dev.proxypool.core.sequential.FetchOutcome}).</li>
 *   <li>{@link dev.proxypool.sdk.provider.SourceSet}: all enabled upstreams in parallel on virtual
 *       threads, per-source timeouts, merged and deduplicated into a
 *       {@link dev.proxypool.sdk.provider.FetchRound}.</li>
 * </ul>
 *
 * <p>Sources are untrusted: every answer is capped at {@code maxBytes} (default 5 MB) while it
 * streams, every record is validated, and a bad record is dropped and counted by
 * {@link dev.proxypool.sdk.provider.DropReason} while the good ones are kept. Credentials never
 * enter a {@code Proxy}: only a {@code credentialRef} does. Feed-supplied {@code asn} labels are
 * kept as {@code source_asn}; the exit network comes from the validator and {@code sdk.asn}.
 */
package dev.proxypool.sdk.provider;
