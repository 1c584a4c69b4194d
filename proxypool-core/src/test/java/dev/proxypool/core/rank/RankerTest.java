package dev.proxypool.core.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.ExitNetwork;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RankerTest {

    static RankCandidate cand(String id, double latency, int streak, long asn, String ip) {
        return new RankCandidate(id, latency, streak, new ExitNetwork(ip, asn, "", ""));
    }

    private static List<String> ids(List<RankResult.Ranked> r) {
        return r.stream().map(x -> x.candidate().proxyId()).toList();
    }

    @Test
    void seedWorkedExampleReproducesExactly() {
        List<RankCandidate> in = List.of(
                cand("proxy-1", 10, 1, 1, "10.0.0.1"),
                cand("proxy-2", 11, 1, 1, "10.0.0.2"),
                cand("proxy-3", 20, 1, 2, "10.0.1.1"));
        RankResult r = new Ranker(RankPolicy.DEFAULTS).rank(in);
        assertEquals(List.of("proxy-1", "proxy-3", "proxy-2"), ids(r.active()));
        assertEquals(92.909091, r.active().get(0).score(), 1e-6);
        assertEquals(49.619048, r.active().get(1).score(), 1e-6);
        assertEquals(28.444444, r.active().get(2).score(), 1e-6);
        assertEquals(85.333333, r.active().get(2).baseScore(), 1e-6);
        assertEquals(
                List.of(1, 2, 3),
                r.active().stream().map(RankResult.Ranked::position).toList());
        assertEquals(List.of(), r.reserve());
        assertEquals(List.of(), r.dropped());
    }

    @Test
    void thresholdLeavesThePoolSmallerThanPoolSize() {
        List<RankCandidate> in = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            in.add(cand("p" + i, 10 + i * 10, 0, 100 + i, "198.51." + i + ".1"));
        }
        // base = 1000 / (1 + latency): at least 18 up to latency 54.5 ms, i.e. i = 0..4
        RankResult strict = new Ranker(RankPolicy.DEFAULTS).rank(in);
        assertEquals(List.of("p0", "p1", "p2", "p3", "p4"), ids(strict.active()));
        assertEquals(0, strict.reserve().size());
        assertEquals(95, strict.droppedCount(RankResult.Reason.BELOW_MIN_SCORE));
        RankResult lax = new Ranker(RankPolicy.DEFAULTS.withMinScore(0)).rank(in);
        assertEquals(100, lax.active().size());
    }

    @Test
    void diversityPenaltyDropsCrowdedSubnetsBelowTheThreshold() {
        List<RankCandidate> in = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            in.add(cand("p" + i, 10, 10, 64500, "203.0.113." + (i + 1)));
        }
        // base 110.909; k-th pick from one ASN and one /24 scores base / (1 + 2k): 110.9, 36.97, 22.18, 15.84
        RankResult r = new Ranker(RankPolicy.DEFAULTS).rank(in);
        assertEquals(3, r.active().size());
        assertEquals(110.909091 / 5, r.active().get(2).score(), 1e-6);
        assertEquals(97, r.droppedCount(RankResult.Reason.BELOW_MIN_SCORE));
    }

    @Test
    void reserveTakesTheNextBestUpToItsSize() {
        List<RankCandidate> in = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            in.add(cand("p" + i, 5 + (i * 7919) % 40, i % 11, 1000 + i, "100." + (i / 250) + "." + (i % 250) + ".9"));
        }
        RankResult r = new Ranker(RankPolicy.DEFAULTS.withSizes(10, 20)).rank(in);
        assertEquals(10, r.active().size());
        assertEquals(20, r.reserve().size());
        assertEquals(970, r.droppedCount(RankResult.Reason.RESERVE_FULL));
        List<RankResult.Ranked> all = new ArrayList<>(r.active());
        all.addAll(r.reserve());
        for (int i = 1; i < all.size(); i++) {
            assertTrue(all.get(i - 1).score() >= all.get(i).score(), "best first");
            assertEquals(i + 1, all.get(i).position());
        }
        assertEveryCandidateOnce(in, r);
    }

    @Test
    void unknownAsnIsPenalizedAndCapped() {
        List<RankCandidate> in = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            in.add(cand("unknown" + i, 1, 0, 0, "192.0." + i + ".1")); // base 500, halved: 250
        }
        for (int i = 0; i < 20; i++) {
            in.add(cand("known" + i, 9, 0, 64500 + i, "198.18." + i + ".1")); // base 100
        }
        RankPolicy policy = RankPolicy.DEFAULTS.withSizes(10, 10).withUnknownAsn(0.5, 0.2);
        RankResult r = new Ranker(policy).rank(in);
        assertEquals(expected("unknown0 unknown1", "known", 0, 8), ids(r.active()));
        assertEquals(expected("unknown2 unknown3", "known", 8, 16), ids(r.reserve()));
        assertEquals(4, r.droppedCount(RankResult.Reason.RESERVE_FULL));
        assertEquals(250.0, r.active().get(0).score(), 1e-9, "unknown ASN scores base x penalty");
        assertEquals(
                2,
                r.active().stream()
                        .filter(x -> x.candidate().exitNetwork().asn() == 0)
                        .count());
        assertEquals(
                2,
                r.reserve().stream()
                        .filter(x -> x.candidate().exitNetwork().asn() == 0)
                        .count());
        assertEquals(16, r.droppedCount(RankResult.Reason.UNKNOWN_ASN_SHARE));
        assertEquals(10, r.reserve().size());
        assertEveryCandidateOnce(in, r);
    }

    private static List<String> expected(String head, String prefix, int from, int to) {
        List<String> out = new ArrayList<>(List.of(head.split(" ")));
        for (int i = from; i < to; i++) {
            out.add(prefix + i);
        }
        return out;
    }

    @Test
    void zeroUnknownShareKeepsUnknownAsnOutEntirely() {
        List<RankCandidate> in = List.of(cand("u", 1, 0, 0, "192.0.2.1"), cand("k", 20, 0, 7, "198.18.0.1"));
        RankResult r = new Ranker(RankPolicy.DEFAULTS.withUnknownAsn(1, 0)).rank(in);
        assertEquals(List.of("k"), ids(r.active()));
        assertEquals(1, r.droppedCount(RankResult.Reason.UNKNOWN_ASN_SHARE));
    }

    @Test
    void ipv6GroupsBySlash48() {
        List<RankCandidate> in = List.of(
                cand("a", 10, 0, 1, "2001:db8:1:1::1"),
                cand("b", 10, 0, 2, "2001:db8:1:ff::1"), // same /48 as a, other ASN
                cand("c", 12, 0, 3, "2001:db8:2::1")); // other /48
        RankResult r = new Ranker(RankPolicy.DEFAULTS).rank(in);
        assertEquals(List.of("a", "c", "b"), ids(r.active()));
        assertEquals(1000.0 / 11 / 2, r.active().get(2).score(), 1e-9);
    }

    @Test
    void unknownExitAddressFormsNoSubnetGroup() {
        List<RankCandidate> in = List.of(cand("a", 10, 0, 1, ""), cand("b", 10, 0, 2, ""));
        RankResult r = new Ranker(RankPolicy.DEFAULTS).rank(in);
        assertEquals(1000.0 / 11, r.active().get(1).score(), 1e-9);
    }

    @Test
    void profilesRankTheSameCandidatesIndependently() {
        List<RankCandidate> in = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            in.add(cand("p" + i, 5 + i * 3, 3, 64500 + i % 7, "100.64." + i + ".1"));
        }
        Map<String, RankResult> byProfile = Ranker.rankProfiles(
                in,
                List.of(
                        new PoolProfile(
                                "small-hq", RankPolicy.DEFAULTS.withMinScore(40).withSizes(5, 0)),
                        new PoolProfile(
                                "bulk", RankPolicy.DEFAULTS.withMinScore(0).withSizes(30, 100))));
        assertEquals(List.of("small-hq", "bulk"), List.copyOf(byProfile.keySet()));
        RankResult hq = byProfile.get("small-hq");
        RankResult bulk = byProfile.get("bulk");
        assertEquals(5, hq.active().size());
        assertTrue(hq.active().stream().allMatch(x -> x.score() >= 40));
        assertEquals(30, bulk.active().size());
        assertEquals(20, bulk.reserve().size());
        assertEquals(ids(hq.active()), ids(bulk.active()).subList(0, 5), "same greedy order, different cut");
        assertEquals("p0", bulk.active().getFirst().candidate().proxyId());
        assertThrows(
                IllegalArgumentException.class,
                () -> Ranker.rankProfiles(
                        in,
                        List.of(new PoolProfile("x", RankPolicy.DEFAULTS), new PoolProfile("x", RankPolicy.DEFAULTS))));
    }

    @Test
    void emptyInputGivesEmptyPools() {
        RankResult r = new Ranker(RankPolicy.DEFAULTS).rank(List.of());
        assertEquals(0, r.active().size() + r.reserve().size() + r.dropped().size());
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                bad("minScore must be a finite number >= 0, got -1.0", () -> RankPolicy.DEFAULTS.withMinScore(-1)),
                bad(
                        "minScore must be a finite number >= 0, got NaN",
                        () -> RankPolicy.DEFAULTS.withMinScore(Double.NaN)),
                bad("poolSize must be between 1 and 1000000, got 0", () -> RankPolicy.DEFAULTS.withSizes(0, 700)),
                bad("reserveSize must be between 0 and 1000000, got -1", () -> RankPolicy.DEFAULTS.withSizes(150, -1)),
                bad("unknownAsnPenalty must be in (0, 1], got 0.0", () -> RankPolicy.DEFAULTS.withUnknownAsn(0, 0.2)),
                bad("unknownAsnPenalty must be in (0, 1], got 1.5", () -> RankPolicy.DEFAULTS.withUnknownAsn(1.5, 0.2)),
                bad(
                        "unknownAsnMaxShare must be in [0, 1], got 1.2",
                        () -> RankPolicy.DEFAULTS.withUnknownAsn(0.5, 1.2)),
                bad("pool profile name 'a b' must be", () -> new PoolProfile("a b", RankPolicy.DEFAULTS)),
                bad("pool profile x: policy is missing", () -> new PoolProfile("x", null)),
                bad("candidate p: latencyMs must be a finite number >= 0, got -1.0", () -> cand("p", -1, 0, 1, "")),
                bad(
                        "candidate p: latencyMs must be a finite number >= 0, got Infinity",
                        () -> cand("p", Double.POSITIVE_INFINITY, 0, 1, "")),
                bad("candidate p: successStreak must not be negative, got -2", () -> cand("p", 1, -2, 1, "")),
                bad(
                        "candidate p: exitIp 'shop.example' is not an IPv4 or IPv6 address",
                        () -> cand("p", 1, 0, 1, "shop.example")),
                bad("candidate proxy id is missing", () -> cand(" ", 1, 0, 1, "")),
                bad(
                        "candidates[2]: proxy id 'a' is also candidates[0]",
                        () -> new Ranker(RankPolicy.DEFAULTS)
                                .rank(List.of(
                                        cand("a", 1, 0, 1, ""), cand("b", 1, 0, 1, ""), cand("a", 2, 0, 1, "")))));
    }

    private static Arguments bad(String message, Supplier<Object> s) {
        return Arguments.of(message, s);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void badInput(String message, Supplier<Object> s) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, s::get);
        assertTrue(e.getMessage().startsWith(message), () -> "message was: " + e.getMessage());
    }

    static void assertEveryCandidateOnce(List<RankCandidate> in, RankResult r) {
        Set<String> seen = new HashSet<>();
        Stream.concat(
                        Stream.concat(
                                r.active().stream().map(RankResult.Ranked::candidate),
                                r.reserve().stream().map(RankResult.Ranked::candidate)),
                        r.dropped().stream().map(RankResult.Dropped::candidate))
                .forEach(c -> assertTrue(seen.add(c.proxyId()), "twice: " + c.proxyId()));
        assertEquals(in.size(), seen.size());
    }
}
