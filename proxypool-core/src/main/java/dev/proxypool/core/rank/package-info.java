/**
 * Ranking validated candidates into an active pool and a reserve:
 * {@link dev.proxypool.core.rank.Ranker} scores each candidate by latency and success streak, then a
 * greedy pass spreads picks across ASNs and subnets, under a {@link dev.proxypool.core.rank.RankPolicy}
 * or a named {@link dev.proxypool.core.rank.PoolProfile}. Every input lands in exactly one of active,
 * reserve or dropped (with a reason). Deterministic and pure: no I/O, no DNS (addresses are parsed by
 * hand), no clock.
 */
package dev.proxypool.core.rank;
