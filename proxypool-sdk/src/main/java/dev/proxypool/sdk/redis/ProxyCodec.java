package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.ProxyState;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.extract.StoredProxy;
import dev.proxypool.core.model.Anonymity;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A proxy as its value in the pool's record hash (layout in {@code redis/common.lua}).
 *
 * <p>The record itself is one token {@code rec} that only Java reads: a sequence of
 * {@code <length>:<text>} tokens (length in chars), so any text round-trips and an extraction
 * returns one bulk string per proxy instead of a field list — the scripts' reply and this decoding
 * are the largest per-proxy costs after the index updates. It carries the credentialRef name only,
 * never a secret (docs/design.md#security, X6). Before it, in the same value ({@link #storedValue}),
 * the scripts get what they compare or index: the physical key, the upstream, {@code expiresAt} as
 * epoch milliseconds (rounded down; {@code en} marks a dropped sub-millisecond part), and
 * {@code ix}: the index terms, each prefixed by its UTF-8 byte length (Lua counts bytes).
 */
final class ProxyCodec {

    private static final String VERSION = "1";

    private ProxyCodec() {}

    /**
     * The 3 publish arguments of {@code p}: its id, its {@link #storedValue} and its
     * {@link #setTerms} concatenated (see publish.lua).
     */
    static void publishArgs(Proxy p, List<String> out) {
        publishArgs(p, StoreSettings.DEFAULTS, out);
    }

    /**
     * As {@link #publishArgs(Proxy, List)}, indexing the combinations of the store's declared
     * dimensions ({@link StoreSettings#indexDimensions()}, {@link StoreSettings#indexProtocol()}).
     */
    static void publishArgs(Proxy p, StoreSettings index, List<String> out) {
        out.add(p.id());
        out.add(storedValue(p, index.indexDimensions()));
        out.add(String.join("", setTerms(p, index)));
    }

    /**
     * The index tag of a store indexing under {@code index}: {@code #} and its sorted
     * {@code store.index.dimensions} joined by commas, then {@code +p} when it indexes the protocol's
     * combinations and {@code +u} when the upstream's, and {@code +x}: every proxy that never expires has
     * its expiry entry ({@code +inf} in common.lua's {@code T xa}; e.g. {@code #country,type+p+x}).
     * publish.lua writes it last in each proxy's fast item; a pool whose every item carries the
     * caller's tag is indexed alike (common.lua {@code indexed_alike}), and then the composite range of
     * a filter's declared labels proves a shortfall without reading the range of a single label, and
     * the expiry range a {@code minRemainingTtl} shortfall without reading the filter's (extract.lua).
     * No term starts with {@code #}, and dimension names hold no comma or {@code +}.
     */
    static String indexTag(StoreSettings index) {
        StringBuilder sb = new StringBuilder("#");
        sb.append(String.join(",", new TreeSet<>(index.indexDimensions())));
        if (index.indexProtocol()) {
            sb.append("+p");
        }
        if (index.indexUpstream()) {
            sb.append("+u");
        }
        return sb.append("+x").toString();
    }

    /**
     * The set terms of {@code p} ({@code <bytes>:<item>} each, as the index terms are written):
     * the sets of common.lua ({@code T e:<term>}) it is a member of, which the extraction's fast
     * path pops: {@code u:<upstream>}, {@code p:<protocol>}, each label of {@code dims} it has, each
     * composite of two or more of {@code dims} it has (the composite items of
     * {@link #indexItems(Proxy, List)}), when {@link StoreSettings#indexProtocol()} each combination
     * of one or more of them with its protocol, and when {@link StoreSettings#indexUpstream()} each
     * combination of its upstream with one or more of them, with the protocol (when that is indexed)
     * and with both ({@link #compositeItem(String, String, Map)}): a client asking for one protocol
     * in a country, or one upstream's proxies of a country, pops a set of matches only, however few
     * of the country's proxies match. {@code dims}: {@link StoreSettings#indexDimensions()}.
     */
    static List<String> setTerms(Proxy p, StoreSettings index) {
        List<String> dims = index.indexDimensions();
        List<String> out = new ArrayList<>(4 + dims.size());
        String protocol = p.protocol().wireName();
        out.add(term("u:" + p.upstream()));
        out.add(term("p:" + protocol));
        for (String d : dims) {
            String v = p.labels().values().get(d);
            if (v != null) {
                out.add(term(labelItem(d, v)));
            }
        }
        for (Map<String, String> combo : combinations(p, dims, 2)) {
            out.add(term(compositeItem(combo)));
        }
        List<Map<String, String>> some = combinations(p, dims, 1);
        if (index.indexProtocol()) {
            for (Map<String, String> combo : some) {
                out.add(term(compositeItem(null, protocol, combo)));
            }
        }
        if (index.indexUpstream()) {
            if (index.indexProtocol()) {
                out.add(term(compositeItem(p.upstream(), protocol, Map.of())));
            }
            for (Map<String, String> combo : some) {
                out.add(term(compositeItem(p.upstream(), null, combo)));
                if (index.indexProtocol()) {
                    out.add(term(compositeItem(p.upstream(), protocol, combo)));
                }
            }
        }
        return out;
    }

    /**
     * The set term a filter is exactly ({@link #setTerms}), or empty when no one set holds just its
     * matches: only an upstream, only a protocol, only declared labels (one: its label's set; two or
     * more: their composite), or such labels, a protocol and an upstream, two or more of them, whose
     * combination is indexed ({@link StoreSettings#indexProtocol()}, {@link StoreSettings#indexUpstream()}).
     * No filter: empty too (the unfiltered path pops the available set).
     */
    static Optional<String> setTermFor(
            Optional<String> upstream, Optional<String> protocol, Map<String, String> labels, StoreSettings index) {
        List<String> terms = setTermsFor(upstream, protocol, labels, index);
        return terms.size() == 1 ? Optional.of(terms.get(0)) : Optional.empty();
    }

    /**
     * The set terms whose sets all hold a proxy exactly when it matches the filter, the narrowest
     * first (the set to pop): the labels' term (one declared label, or the composite of two or more),
     * combined with the upstream and the protocol where such combinations are indexed
     * ({@link StoreSettings#indexUpstream()}, {@link StoreSettings#indexProtocol()}), then the
     * upstream's, then the protocol's (unless in the first). Empty when a label is not a declared
     * dimension (no set holds it) or there is no filter.
     */
    static List<String> setTermsFor(
            Optional<String> upstream, Optional<String> protocol, Map<String, String> labels, StoreSettings index) {
        if (!labels.isEmpty() && compositeSize(labels, index.indexDimensions()) != labels.size()) {
            return List.of(); // a label outside the declared dimensions: no set
        }
        boolean protocolIndexed = protocol.isPresent() && index.indexProtocol();
        boolean withUpstream = upstream.isPresent() && index.indexUpstream() && (!labels.isEmpty() || protocolIndexed);
        boolean withProtocol = protocolIndexed && (!labels.isEmpty() || withUpstream);
        List<String> out = new ArrayList<>(3);
        if (withUpstream || withProtocol) {
            out.add(term(compositeItem(
                    withUpstream ? upstream.get() : null,
                    withProtocol ? protocol.get() : null,
                    new TreeMap<>(labels))));
        } else if (labels.size() == 1) {
            Map.Entry<String, String> l = labels.entrySet().iterator().next();
            out.add(term(labelItem(l.getKey(), l.getValue())));
        } else if (!labels.isEmpty()) {
            out.add(term(compositeItem(new TreeMap<>(labels))));
        }
        if (!withUpstream) {
            upstream.ifPresent(u -> out.add(term("u:" + u)));
        }
        if (!withProtocol) {
            protocol.ifPresent(p -> out.add(term("p:" + p)));
        }
        return out;
    }

    /** {@code <bytes>:<item>}: an index or set term as the scripts write it. */
    static String term(String item) {
        return utf8Length(item) + ":" + item;
    }

    /**
     * The value of {@code p} in the pool's record hash ({@code T r} of {@code redis/common.lua}):
     * tokens {@code <bytes>:<text>} (UTF-8 byte lengths: Lua counts bytes) of the physical key,
     * the upstream, expiresAt ms ({@code ""} = never), {@code "1"} when a sub-millisecond part was
     * dropped (else {@code ""}), the index terms and the {@link #record}.
     */
    static String storedValue(Proxy p) {
        return storedValue(p, StoreSettings.DEFAULT_INDEX_DIMENSIONS);
    }

    static String storedValue(Proxy p, List<String> dims) {
        StringBuilder sb = new StringBuilder(320);
        item(sb, RedisKeys.physical(p.key()));
        item(sb, p.upstream());
        if (p.expires()) {
            item(sb, Long.toString(millis(p.expiresAt())));
            item(sb, subMillisNanos(p.expiresAt()) == 0 ? "" : "1");
        } else {
            item(sb, "");
            item(sb, "");
        }
        item(sb, indexItems(p, dims));
        item(sb, record(p));
        return sb.toString();
    }

    static String record(Proxy p) {
        StringBuilder sb = new StringBuilder(160);
        token(sb, VERSION);
        token(sb, p.id());
        token(sb, p.protocol().wireName());
        token(sb, p.host());
        token(sb, Integer.toString(p.port()));
        token(sb, p.credentialRef().name());
        token(sb, p.provider());
        token(sb, p.upstream());
        token(sb, Integer.toString(p.maxConcurrency()));
        token(sb, Integer.toString(p.weight()));
        token(sb, p.anonymity().name());
        token(sb, p.expires() ? Long.toString(millis(p.expiresAt())) : "");
        token(sb, p.expires() ? Integer.toString(subMillisNanos(p.expiresAt())) : "");
        ExitNetwork x = p.exitNetwork();
        if (ExitNetwork.UNKNOWN.equals(x)) {
            token(sb, "");
        } else {
            token(sb, "x");
            token(sb, x.exitIp());
            token(sb, Long.toString(x.asn()));
            token(sb, x.organization());
            token(sb, x.prefix());
        }
        token(sb, Integer.toString(p.labels().size()));
        for (Map.Entry<String, String> l : p.labels().values().entrySet()) {
            token(sb, l.getKey());
            token(sb, l.getValue());
        }
        return sb.toString();
    }

    /**
     * The index terms of {@code p}, each {@code <bytes>:<item>}: {@code u:<upstream>},
     * {@code p:<protocol>}, {@code l:<n>:<k>=<v>} per label (the members of the index are
     * {@code <term>|<id>}).
     */
    static String indexItems(Proxy p) {
        return indexItems(p, StoreSettings.DEFAULT_INDEX_DIMENSIONS);
    }

    /**
     * As {@link #indexItems(Proxy)}, plus one composite term {@code c:<label items>} per combination
     * of two or more of {@code dims} (sorted label keys) that the proxy has all of: a filter on such a
     * combination reads one range of the index, every member a match (docs/architecture.md).
     */
    static String indexItems(Proxy p, List<String> dims) {
        StringBuilder sb = new StringBuilder(128);
        item(sb, "u:" + p.upstream());
        item(sb, "p:" + p.protocol().wireName());
        for (Map.Entry<String, String> l : p.labels().values().entrySet()) {
            item(sb, labelItem(l.getKey(), l.getValue()));
        }
        for (String composite : compositeItems(p, dims)) {
            item(sb, composite);
        }
        return sb.toString();
    }

    /** The composite items of {@code p}: one per combination of two or more of {@code dims} it has all of. */
    private static List<String> compositeItems(Proxy p, List<String> dims) {
        List<String> out = new ArrayList<>();
        for (Map<String, String> combo : combinations(p, dims, 2)) {
            out.add(compositeItem(combo));
        }
        return out;
    }

    /**
     * The combinations of at least {@code min} of {@code dims} (sorted label keys) that {@code p} has
     * all of, each its labels in key order.
     */
    private static List<Map<String, String>> combinations(Proxy p, List<String> dims, int min) {
        List<String> present = new ArrayList<>(dims.size());
        for (String d : dims) {
            if (p.labels().values().containsKey(d)) {
                present.add(d);
            }
        }
        List<Map<String, String>> out = new ArrayList<>();
        for (int mask = 1; mask < 1 << present.size(); mask++) {
            if (Integer.bitCount(mask) >= min) {
                Map<String, String> combo = new TreeMap<>();
                for (int i = 0; i < present.size(); i++) {
                    if ((mask & 1 << i) != 0) {
                        combo.put(present.get(i), p.labels().values().get(present.get(i)));
                    }
                }
                out.add(combo);
            }
        }
        return out;
    }

    /**
     * The composite index item of these labels (two or more, in key order): {@code c:} and each
     * label's {@link #labelItem} length-prefixed, so no two combinations share a name.
     */
    static String compositeItem(Map<String, String> labels) {
        return compositeItem(null, null, labels);
    }

    /**
     * The set item of these labels (none or more, in key order) with an upstream, a protocol or both
     * (null: not part of it): {@code c:}, the upstream's item {@code u:<upstream>} length-prefixed,
     * the protocol's item {@code p:<protocol>} length-prefixed, then the labels as in
     * {@link #compositeItem(Map)} (a label item starts {@code l:}, so no name is two combinations). A
     * set term only: the index (T i) has no such members, its ranges serve the general script.
     */
    static String compositeItem(String upstream, String protocol, Map<String, String> labels) {
        StringBuilder sb = new StringBuilder(96).append("c:");
        if (upstream != null) {
            item(sb, "u:" + upstream);
        }
        if (protocol != null) {
            item(sb, "p:" + protocol);
        }
        labels.forEach((k, v) -> item(sb, labelItem(k, v)));
        return sb.toString();
    }

    /**
     * The composite item a filter reads its range from: that of the largest combination of
     * {@code dims} among the filter's labels, or empty when it names fewer than two of them.
     */
    static Optional<String> compositeFor(Map<String, String> required, List<String> dims) {
        TreeMap<String, String> combo = new TreeMap<>();
        for (String d : dims) {
            String v = required.get(d);
            if (v != null) {
                combo.put(d, v);
            }
        }
        return combo.size() >= 2 ? Optional.of(compositeItem(combo)) : Optional.empty();
    }

    /** How many of the {@code required} labels are declared dimensions ({@link #compositeFor}'s combination). */
    static int compositeSize(Map<String, String> required, List<String> dims) {
        int n = 0;
        for (String d : dims) {
            if (required.containsKey(d)) {
                n++;
            }
        }
        return n;
    }

    /** The index item of label {@code k=v}; {@code n} is k's UTF-8 length, so no two labels share a name. */
    static String labelItem(String k, String v) {
        return "l:" + utf8Length(k) + ":" + k + "=" + v;
    }

    private static void item(StringBuilder sb, String item) {
        sb.append(utf8Length(item)).append(':').append(item);
    }

    static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static void token(StringBuilder sb, String s) {
        sb.append(s.length()).append(':').append(s);
    }

    /** Decodes a record written by {@link #record}. */
    static Proxy decode(String r) {
        Reader in = new Reader(r);
        String version = in.next();
        if (!VERSION.equals(version)) {
            throw new IllegalStateException("unknown stored record version '" + version + "'");
        }
        String id = in.next();
        Protocol protocol = Protocol.parse(in.next());
        String host = in.next();
        int port = Integer.parseInt(in.next());
        ProxyKey key = new ProxyKey(protocol, host, port, CredentialRef.of(in.next()));
        Proxy.Builder b = Proxy.builder(key)
                .id(id)
                .provider(in.next())
                .upstream(in.next())
                .maxConcurrency(Integer.parseInt(in.next()))
                .weight(Integer.parseInt(in.next()))
                .anonymity(Anonymity.valueOf(in.next()));
        String expMs = in.next();
        String expNs = in.next();
        if (!expMs.isEmpty()) {
            b.expiresAt(Instant.ofEpochMilli(Long.parseLong(expMs)).plusNanos(Long.parseLong(expNs)));
        }
        if (!in.next().isEmpty()) {
            b.exitNetwork(new ExitNetwork(in.next(), Long.parseLong(in.next()), in.next(), in.next()));
        }
        int labels = Integer.parseInt(in.next());
        if (labels > 0) {
            TreeMap<String, String> m = new TreeMap<>();
            for (int i = 0; i < labels; i++) {
                m.put(in.next(), in.next());
            }
            b.labels(Labels.of(m));
        }
        return b.build();
    }

    /** The stored proxy of fields r, s, c, cn (c and cn null or empty when never checked). */
    static StoredProxy stored(String r, String s, String c, String cn) {
        ProxyState state = "disabled".equals(s) ? ProxyState.DISABLED : ProxyState.AVAILABLE;
        Instant checked = null;
        if (c != null && !c.isEmpty()) {
            checked = Instant.ofEpochMilli(Long.parseLong(c));
            if (cn != null && !cn.isEmpty()) {
                checked = checked.plusNanos(Long.parseLong(cn));
            }
        }
        return new StoredProxy(decode(r), state, Optional.ofNullable(checked));
    }

    static long millis(Instant t) {
        return t.toEpochMilli();
    }

    static int subMillisNanos(Instant t) {
        return t.getNano() % 1_000_000;
    }

    /** Reads {@code <length>:<text>} tokens in order. */
    private static final class Reader {
        private final String s;
        private int pos;

        Reader(String s) {
            this.s = s;
        }

        String next() {
            int colon = s.indexOf(':', pos);
            if (colon < 0) {
                throw new IllegalStateException("stored record is truncated at " + pos);
            }
            int len = Integer.parseInt(s, pos, colon, 10);
            pos = colon + 1 + len;
            return s.substring(colon + 1, pos);
        }
    }
}
