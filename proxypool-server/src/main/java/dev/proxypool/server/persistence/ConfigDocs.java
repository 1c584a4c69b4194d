package dev.proxypool.server.persistence;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.routing.Match;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.sequential.Exhaustion;
import dev.proxypool.core.sticky.StickyPolicy;
import dev.proxypool.sdk.config.Durations;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes typed config records back as entity documents in the YAML's shape, so a configuration
 * loaded from {@code proxypool.yaml} can seed a store. {@link ConfigTree} reading a document written
 * here gives back an equal record (the round trip is tested).
 */
final class ConfigDocs {

    private ConfigDocs() {}

    static ConfigState state(ProxyPoolConfig c) {
        List<Entity> providers = new ArrayList<>();
        c.providers().forEach(p -> providers.add(new Entity(EntityType.PROVIDER, p.name(), provider(p))));
        List<Entity> upstreams = new ArrayList<>();
        c.upstreams().forEach(u -> upstreams.add(new Entity(EntityType.UPSTREAM, u.name(), upstream(u))));
        List<Entity> routings = new ArrayList<>();
        c.routings().forEach(r -> routings.add(new Entity(EntityType.ROUTING, r.name(), routing(r))));
        List<Entity> clients = new ArrayList<>();
        c.clients().forEach(cl -> clients.add(new Entity(EntityType.CLIENT, cl.name(), ClientDocs.fromConfig(cl))));
        return new ConfigState(0, providers, upstreams, routings, clients);
    }

    static Map<String, Object> provider(ProxyPoolConfig.Provider p) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("name", p.name());
        d.put("type", p.type());
        Map<String, Object> labels = new TreeMap<>();
        p.settings().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            if (e.getKey().startsWith("labels.")) {
                labels.put(e.getKey().substring("labels.".length()), e.getValue());
            } else {
                d.put(e.getKey(), e.getValue());
            }
        });
        if (!labels.isEmpty()) {
            d.put("labels", labels);
        }
        if (!p.fields().isEmpty()) {
            d.put("fields", new LinkedHashMap<>(p.fields()));
        }
        return d;
    }

    static Map<String, Object> upstream(ProxyPoolConfig.Upstream u) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("name", u.name());
        d.put("provider", u.provider());
        if (!u.params().isEmpty()) {
            d.put("params", new LinkedHashMap<>(u.params()));
        }
        Map<String, Object> fetch = new LinkedHashMap<>();
        fetch.put("interval", Durations.format(u.fetchInterval()));
        fetch.put("lowWaterMark", u.lowWaterMark());
        d.put("fetch", fetch);
        d.put("validate", u.validate());
        u.resolveDestinations().ifPresent(r -> d.put("resolveDestinations", r));
        return d;
    }

    static Map<String, Object> routing(RoutingRule r) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("name", r.name());
        Map<String, Object> match = match(r.match());
        if (!match.isEmpty()) {
            d.put("match", match);
        }
        d.put("strategy", r.strategy().configName());
        if (!r.upstreams().isEmpty()) {
            d.put("upstreams", r.upstreams());
        }
        if (r.isSequential()
                || r.exhaustion() != Exhaustion.STOP
                || r.emptyThreshold() != RoutingRule.DEFAULT_EMPTY_THRESHOLD) {
            d.put("exhaustion", r.exhaustion().configName());
            d.put("emptyThreshold", r.emptyThreshold());
        }
        Map<String, Object> filter = new LinkedHashMap<>();
        if (!r.filter().protocols().isEmpty()) {
            List<String> protocols = new ArrayList<>();
            for (Protocol p : Protocol.values()) {
                if (r.filter().protocols().contains(p)) {
                    protocols.add(p.wireName());
                }
            }
            filter.put("protocols", protocols);
        }
        if (!r.filter().labels().isEmpty()) {
            filter.put("labels", new TreeMap<>(r.filter().labels().required()));
        }
        if (!filter.isEmpty()) {
            d.put("filter", filter);
        }
        putDuration(d, "minRemainingTtl", r.filter().minRemainingTtl());
        putDuration(d, "maxHealthAge", r.filter().maxHealthAge());
        if (!r.sticky().equals(StickyPolicy.DISABLED)) {
            StickyPolicy s = r.sticky();
            Map<String, Object> sticky = new LinkedHashMap<>();
            sticky.put("enabled", s.enabled());
            sticky.put("header", s.header());
            sticky.put("lifetime", Durations.format(s.lifetime()));
            sticky.put("idle", Durations.format(s.idle()));
            sticky.put("onLost", s.onLost().name().toLowerCase(Locale.ROOT));
            sticky.put("maxEntries", s.maxEntries());
            sticky.put("busyWait", Durations.format(s.busyWait()));
            sticky.put("switchFailures", s.switchFailures());
            sticky.put("switchErrorRate", s.switchErrorRate());
            sticky.put("switchWindow", s.switchWindow());
            d.put("sticky", sticky);
        }
        d.put(
                "retry",
                Map.of(
                        "maxAttempts",
                        r.retry().maxAttempts(),
                        "budgetPercent",
                        r.retry().budgetPercent()));
        d.put("onNoCandidate", r.onNoCandidate().configName());
        d.put("waitTimeout", Durations.format(r.waitTimeout()));
        if (!r.hashKey().isTargetHost()) {
            d.put("hashKey", r.hashKey().configName());
        }
        return d;
    }

    private static Map<String, Object> match(Match m) {
        Map<String, Object> d = new LinkedHashMap<>();
        if (!m.clients().isEmpty()) {
            d.put("clients", m.clients());
        }
        if (!m.hosts().isEmpty()) {
            d.put("hosts", m.hosts());
        }
        if (!m.ports().isEmpty()) {
            d.put("ports", m.ports());
        }
        if (!m.methods().isEmpty()) {
            d.put("methods", m.methods());
        }
        if (!m.headers().isEmpty()) {
            d.put("headers", new LinkedHashMap<>(m.headers()));
        }
        return d;
    }

    private static void putDuration(Map<String, Object> d, String key, Duration v) {
        if (!v.isZero()) {
            d.put(key, Durations.format(v));
        }
    }
}
