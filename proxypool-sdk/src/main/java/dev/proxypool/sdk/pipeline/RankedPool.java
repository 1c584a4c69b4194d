package dev.proxypool.sdk.pipeline;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.rank.RankCandidate;
import dev.proxypool.core.rank.RankResult;
import dev.proxypool.core.rank.Ranker;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The pipeline's memory of every validated proxy of the validated upstreams, with its last latency
 * and its success streak, and the picks of the last ranking (docs/design.md#collection-pipeline,
 * P10). Each ranking takes everything valid, earlier picks included, so {@code poolSize} bounds
 * the whole active pool and the diversity rules judge it whole; a round ranking only its own
 * fetch would add its top N to the earlier ones.
 *
 * <p>Not thread-safe: the pipeline uses it under its round lock.
 */
final class RankedPool {

    /** One valid proxy: its last validation and how many validation cycles in a row it passed. */
    record Entry(Proxy proxy, double latencyMs, int streak) {}

    /** What one ranking decided: the active proxies by upstream, the earlier picks that leave, the ranker's result. */
    record Decision(Map<String, List<Proxy>> active, Set<String> withdrawn, RankResult result) {}

    /** Far above the score's cap (10), low enough never to overflow. */
    private static final int STREAK_LIMIT = 1_000;

    private final Ranker ranker;
    private final Map<String, Entry> valid = new LinkedHashMap<>();
    private final Set<String> considered = new HashSet<>();
    private Set<String> picked = Set.of();

    RankedPool(Ranker ranker) {
        this.ranker = ranker;
    }

    /**
     * One validation cycle of an upstream's candidates: the ones that passed extend their streak
     * (or start one at 1), the others lose theirs and their place. Only for a cycle that judged
     * every candidate; a stage that could not validate at all (no echo, no ASN database) must not
     * be taken for every proxy failing.
     */
    void validated(List<Proxy> candidates, List<ValidationStage.Validated> passed) {
        Set<String> ok = new HashSet<>();
        for (ValidationStage.Validated v : passed) {
            String id = v.proxy().id();
            ok.add(id);
            Entry before = valid.get(id);
            int streak = before == null ? 1 : Math.min(before.streak() + 1, STREAK_LIMIT);
            valid.put(id, new Entry(v.proxy(), v.latencyMs(), streak));
        }
        for (Proxy c : candidates) {
            considered.add(c.id());
            if (!ok.contains(c.id())) {
                valid.remove(c.id());
            }
        }
    }

    /** Forgets these proxies (withdrawn by their source, removed by an operator, extracted). */
    void forget(Collection<String> ids) {
        ids.forEach(valid::remove);
    }

    /** Forgets every proxy whose upstream no longer passes {@code keep} (removed, or no longer validated). */
    void retainUpstreams(Predicate<String> keep) {
        valid.values().removeIf(e -> !keep.test(e.proxy().upstream()));
    }

    /** Whether anything was validated since the last ranking, so a ranking is due. */
    boolean changed() {
        return !considered.isEmpty();
    }

    /**
     * Ranks everything valid: the best {@code poolSize} form the active pool; an earlier pick, or a
     * proxy judged this round, that is in the pool but not among them is withdrawn.
     *
     * @param inPool ids in the pool now: an earlier pick that left it (extracted, disabled and removed,
     *               expired) is forgotten rather than ranked into a place it cannot fill
     * @param now    expired entries are forgotten
     */
    Decision rank(Set<String> inPool, Instant now) {
        for (String id : picked) {
            if (!inPool.contains(id)) {
                valid.remove(id);
            }
        }
        valid.values().removeIf(e -> e.proxy().isExpired(now));
        List<RankCandidate> candidates = new ArrayList<>(valid.size());
        for (Entry e : valid.values()) {
            candidates.add(RankCandidate.of(e.proxy(), e.latencyMs(), e.streak()));
        }
        RankResult result = ranker.rank(candidates);
        Map<String, List<Proxy>> active = new LinkedHashMap<>();
        Set<String> activeIds = HashSet.newHashSet(result.active().size());
        for (RankResult.Ranked r : result.active()) {
            Proxy p = valid.get(r.candidate().proxyId()).proxy();
            activeIds.add(p.id());
            active.computeIfAbsent(p.upstream(), u -> new ArrayList<>()).add(p);
        }
        Set<String> withdrawn = new HashSet<>();
        for (String id : picked) {
            if (inPool.contains(id) && !activeIds.contains(id)) {
                withdrawn.add(id);
            }
        }
        for (String id : considered) {
            if (inPool.contains(id) && !activeIds.contains(id)) {
                withdrawn.add(id);
            }
        }
        considered.clear();
        picked = activeIds;
        return new Decision(active, withdrawn, result);
    }

    /** The streak of a valid proxy, 0 when it is not valid (tests, status). */
    int streak(String id) {
        Entry e = valid.get(id);
        return e == null ? 0 : e.streak();
    }

    /** The upstream of each valid proxy by id (for dropping counts). */
    Map<String, String> upstreams() {
        Map<String, String> out = HashMap.newHashMap(valid.size());
        valid.forEach((id, e) -> out.put(id, e.proxy().upstream()));
        return out;
    }
}
