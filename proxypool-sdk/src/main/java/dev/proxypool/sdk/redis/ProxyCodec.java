package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.ProxyState;
import dev.proxypool.core.extract.StoredProxy;
import dev.proxypool.core.model.Anonymity;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A proxy as the fields of its Redis hash {@code P p:<id>}, and back. The record carries the
 * credentialRef name only, never a secret (SPEC §9). Instants are epoch milliseconds, the unit
 * the scripts compare ({@code exp}, {@code checked}), plus the nanoseconds within that millisecond
 * when not zero ({@code expNs}, {@code checkedNs}) so a record reads back equal to what was stored.
 * Labels are fields {@code l.<key>}; an unknown exit network and an absent credentialRef are left out.
 */
final class ProxyCodec {

    static final String STATE_AVAILABLE = "available";
    static final String STATE_DISABLED = "disabled";

    private ProxyCodec() {
    }

    /** Field/value pairs appended to {@code out} (the record only: the script adds state and checked). */
    static int encode(Proxy p, List<String> out) {
        int before = out.size();
        pair(out, "id", p.id());
        pair(out, "proto", p.protocol().wireName());
        pair(out, "host", p.host());
        pair(out, "port", Integer.toString(p.port()));
        if (p.credentialRef().isPresent()) {
            pair(out, "cred", p.credentialRef().name());
        }
        pair(out, "provider", p.provider());
        pair(out, "upstream", p.upstream());
        pair(out, "maxConc", Integer.toString(p.maxConcurrency()));
        pair(out, "weight", Integer.toString(p.weight()));
        pair(out, "anon", p.anonymity().name());
        if (p.expires()) {
            pair(out, "exp", Long.toString(millis(p.expiresAt())));
            int ns = subMillisNanos(p.expiresAt());
            if (ns != 0) {
                pair(out, "expNs", Integer.toString(ns));
            }
        }
        ExitNetwork x = p.exitNetwork();
        if (!ExitNetwork.UNKNOWN.equals(x)) {
            pair(out, "xip", x.exitIp());
            pair(out, "asn", Long.toString(x.asn()));
            pair(out, "org", x.organization());
            pair(out, "pfx", x.prefix());
        }
        for (Map.Entry<String, String> l : p.labels().values().entrySet()) {
            pair(out, "l." + l.getKey(), l.getValue());
        }
        return (out.size() - before) / 2;
    }

    private static void pair(List<String> out, String field, String value) {
        out.add(field);
        out.add(value);
    }

    /** The stored proxy of a hash read whole ({@code HGETALL}). */
    static StoredProxy decode(Map<String, String> h) {
        ProxyKey key = new ProxyKey(Protocol.parse(h.get("proto")), h.get("host"), Integer.parseInt(h.get("port")),
                CredentialRef.of(h.get("cred")));
        TreeMap<String, String> labels = new TreeMap<>();
        for (Map.Entry<String, String> e : h.entrySet()) {
            if (e.getKey().startsWith("l.")) {
                labels.put(e.getKey().substring(2), e.getValue());
            }
        }
        Proxy.Builder b = Proxy.builder(key).id(h.get("id")).provider(h.get("provider")).upstream(h.get("upstream"))
                .labels(Labels.of(labels))
                .maxConcurrency(Integer.parseInt(h.get("maxConc"))).weight(Integer.parseInt(h.get("weight")))
                .anonymity(Anonymity.valueOf(h.get("anon")));
        Instant exp = instant(h.get("exp"), h.get("expNs"));
        if (exp != null) {
            b.expiresAt(exp);
        }
        if (h.containsKey("xip")) {
            b.exitNetwork(new ExitNetwork(h.get("xip"), Long.parseLong(h.get("asn")), h.get("org"), h.get("pfx")));
        }
        ProxyState state = STATE_DISABLED.equals(h.get("state")) ? ProxyState.DISABLED : ProxyState.AVAILABLE;
        return new StoredProxy(b.build(), state, Optional.ofNullable(instant(h.get("checked"), h.get("checkedNs"))));
    }

    /** A hash from a script reply: a flat field/value list. */
    static Map<String, String> fields(List<?> flat) {
        TreeMap<String, String> h = new TreeMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            h.put(RedisReplies.string(flat.get(i)), RedisReplies.string(flat.get(i + 1)));
        }
        return h;
    }

    static long millis(Instant t) {
        return t.toEpochMilli();
    }

    static int subMillisNanos(Instant t) {
        return t.getNano() % 1_000_000;
    }

    private static Instant instant(String ms, String ns) {
        if (ms == null) {
            return null;
        }
        Instant t = Instant.ofEpochMilli(Long.parseLong(ms));
        return ns == null ? t : t.plusNanos(Long.parseLong(ns));
    }
}
