package dev.proxypool.sdk.provider;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.sequential.FetchOutcome;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns one {@link RawRecord} into a normalized {@link Proxy}, or a {@link Drop} naming the first
 * rule it broke. Checks run in a fixed order (host, port, protocol, credentialRef, labels, expiry,
 * maxConcurrency, weight) so the same bad record always counts under the same reason.
 *
 * <p>Labels, later wins: the provider's static {@code labels.<k>} settings, then the upstream's
 * params named in {@link FetchContext#LABEL_PARAMS}, then the record's own labels. A fetched
 * {@code asn} label is stored as {@code source_asn}.
 */
final class CandidateMapper {

    private static final long MAX_TTL_SECONDS = 10L * 365 * 24 * 3600;

    private final String provider;
    private final FieldMapping fields;
    private final Protocol defaultProtocol; // null: records must carry one
    private final CredentialRef defaultRef;
    private final Map<String, String> staticLabels;
    private final int defaultMaxConcurrency;
    private final int defaultWeight;
    private final ExpiryFormat expiryFormat;
    /** {@code expiresAtZone}: the zone of an expiry written without an offset; null when not set. */
    private final ZoneId expiryZone;

    CandidateMapper(ProviderConfig config, Settings settings, FieldMapping fields) {
        this.provider = config.name();
        this.fields = fields;
        this.defaultProtocol = settings.protocolOrNull();
        this.defaultRef = settings.credentialRef();
        this.staticLabels = settings.staticLabels();
        this.defaultMaxConcurrency = settings.positiveInt("maxConcurrency", 10);
        this.defaultWeight = settings.positiveInt("weight", 1);
        this.expiryFormat = ExpiryFormat.parse(
                settings.key("expiresAtFormat"), settings.get("expiresAtFormat").orElse("auto"));
        this.expiryZone = settings.get("expiresAtZone")
                .map(z -> ExpiryFormat.zone(settings.key("expiresAtZone"), z))
                .orElse(null);
    }

    /** The mapper bound to one fetch: its upstream, its params, and the time it started. */
    Bound bind(FetchContext ctx, Instant now) throws FetchFailure {
        Protocol protocol = defaultProtocol;
        String p = ctx.params().get("protocol");
        if (p != null && !p.isBlank()) {
            try {
                protocol = Protocol.parse(p);
            } catch (IllegalArgumentException e) {
                throw new FetchFailure(
                        FetchOutcome.ErrorKind.TEMPLATE,
                        "upstreams[" + ctx.upstream() + "].params.protocol: " + e.getMessage());
            }
        }
        TreeMap<String, String> base = new TreeMap<>(staticLabels);
        for (String key : FetchContext.LABEL_PARAMS) {
            String v = ctx.params().get(key);
            if (v != null && !v.isBlank()) {
                if (!LabelRules.validValue(v)) {
                    throw new FetchFailure(
                            FetchOutcome.ErrorKind.TEMPLATE,
                            "upstreams[" + ctx.upstream() + "].params." + key + ": not a valid label value");
                }
                base.put(key, v.trim());
            }
        }
        return new Bound(ctx.upstream(), protocol, base, now);
    }

    /** One fetch's view of the mapper. Not thread-safe; one fetch runs on one thread. */
    final class Bound {
        private final String upstream;
        private final Protocol protocol;
        private final Map<String, String> baseLabels;
        private final Instant now;

        private Bound(String upstream, Protocol protocol, Map<String, String> baseLabels, Instant now) {
            this.upstream = upstream;
            this.protocol = protocol;
            this.baseLabels = baseLabels;
            this.now = now;
        }

        Proxy map(RawRecord r) throws Drop {
            String rawHost = r.scalar(fields.source("host"), DropReason.INVALID_HOST);
            if (rawHost == null) {
                throw new Drop(DropReason.MISSING_HOST);
            }
            String host = Hosts.normalize(rawHost);
            if (host == null) {
                throw new Drop(DropReason.INVALID_HOST);
            }
            int port = port(r.scalar(fields.source("port"), DropReason.INVALID_PORT));
            Protocol proto = protocol(r.scalar(fields.source("protocol"), DropReason.INVALID_PROTOCOL));
            CredentialRef ref =
                    credentialRef(r.scalar(fields.source("credentialRef"), DropReason.INVALID_CREDENTIAL_REF));
            Labels labels = labels(r);
            Instant expiresAt = expiry(
                    r.scalar(fields.source("expiresAt"), DropReason.INVALID_EXPIRES_AT),
                    r.scalar(fields.source("ttlSeconds"), DropReason.INVALID_TTL));
            int maxConcurrency = positive(
                    r.scalar(fields.source("maxConcurrency"), DropReason.INVALID_MAX_CONCURRENCY),
                    defaultMaxConcurrency,
                    DropReason.INVALID_MAX_CONCURRENCY);
            int weight = positive(
                    r.scalar(fields.source("weight"), DropReason.INVALID_WEIGHT),
                    defaultWeight,
                    DropReason.INVALID_WEIGHT);
            ProxyKey key;
            try {
                key = new ProxyKey(proto, host, port, ref);
            } catch (IllegalArgumentException e) {
                throw new Drop(DropReason.INVALID_HOST);
            }
            return Proxy.builder(key)
                    .provider(provider)
                    .upstream(upstream)
                    .labels(labels)
                    .expiresAt(expiresAt)
                    .maxConcurrency(maxConcurrency)
                    .weight(weight)
                    .build();
        }

        private int port(String s) throws Drop {
            if (s == null) {
                throw new Drop(DropReason.MISSING_PORT);
            }
            BigDecimal n = integer(s);
            if (n == null) {
                throw new Drop(DropReason.INVALID_PORT);
            }
            if (n.signum() < 1 || n.compareTo(BigDecimal.valueOf(65535)) > 0) {
                throw new Drop(DropReason.PORT_OUT_OF_RANGE);
            }
            return n.intValue();
        }

        private Protocol protocol(String s) throws Drop {
            if (s == null) {
                if (protocol == null) {
                    throw new Drop(DropReason.MISSING_PROTOCOL);
                }
                return protocol;
            }
            try {
                return Protocol.parse(s);
            } catch (IllegalArgumentException e) {
                throw new Drop(DropReason.INVALID_PROTOCOL);
            }
        }

        private CredentialRef credentialRef(String s) throws Drop {
            if (s == null) {
                return defaultRef;
            }
            try {
                return CredentialRef.of(s);
            } catch (IllegalArgumentException e) {
                throw new Drop(DropReason.INVALID_CREDENTIAL_REF);
            }
        }

        private Labels labels(RawRecord r) throws Drop {
            TreeMap<String, String> out = new TreeMap<>(baseLabels);
            Map<String, String> object = r.labelObject(fields.source("labels"));
            if (object != null) {
                for (Map.Entry<String, String> e : object.entrySet()) {
                    put(out, e.getKey(), e.getValue());
                }
            }
            for (Map.Entry<String, String> e : fields.labelFields().entrySet()) {
                String v = r.scalar(e.getValue(), DropReason.INVALID_LABEL);
                if (v != null) {
                    put(out, e.getKey(), v);
                }
            }
            return out.isEmpty() ? Labels.EMPTY : new Labels(out);
        }

        private void put(Map<String, String> out, String key, String value) throws Drop {
            String k = key == null ? "" : key.trim();
            if (!LabelRules.validKey(k) || !LabelRules.validValue(value)) {
                throw new Drop(DropReason.INVALID_LABEL);
            }
            out.put(LabelRules.storedKey(k), value.trim());
        }

        private Instant expiry(String expiresAt, String ttlSeconds) throws Drop {
            Instant at = Proxy.NO_EXPIRY;
            if (expiresAt != null) {
                at = expiryFormat.read(expiresAt, expiryZone);
                if (at == null) {
                    throw new Drop(DropReason.INVALID_EXPIRES_AT);
                }
            }
            if (ttlSeconds != null) {
                BigDecimal ttl = integer(ttlSeconds);
                if (ttl == null || ttl.signum() < 1 || ttl.compareTo(BigDecimal.valueOf(MAX_TTL_SECONDS)) > 0) {
                    throw new Drop(DropReason.INVALID_TTL);
                }
                Instant byTtl = now.plusSeconds(ttl.longValue());
                at = byTtl.isBefore(at) ? byTtl : at;
            }
            if (!at.isAfter(now)) {
                throw new Drop(DropReason.EXPIRED);
            }
            return at;
        }

        private int positive(String s, int dflt, DropReason reason) throws Drop {
            if (s == null) {
                return dflt;
            }
            BigDecimal n = integer(s);
            if (n == null || n.signum() < 1 || n.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
                throw new Drop(reason);
            }
            return n.intValue();
        }
    }

    /** {@code s} as an integer ({@code 8080}, {@code 8080.0}), or null when it is not one. */
    private static BigDecimal integer(String s) {
        if (s.length() > 32) {
            return null; // no sane port, TTL or weight is this long; spare the parser
        }
        try {
            BigDecimal n = new BigDecimal(s.trim());
            return n.stripTrailingZeros().scale() <= 0 ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
