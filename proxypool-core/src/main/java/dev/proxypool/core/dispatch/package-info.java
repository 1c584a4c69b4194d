/**
 * Choosing a proxy for one request: {@link dev.proxypool.core.dispatch.Dispatcher} takes the
 * memoized candidate set of a {@link dev.proxypool.core.dispatch.CandidateFilter} from a snapshot,
 * lets the routing's {@link dev.proxypool.core.dispatch.Strategy} selector draw candidates, and
 * reserves one unit of capacity through {@link dev.proxypool.core.dispatch.CandidateGate}. This is
 * the hot path shared by the gateway and the SDK: selectors are stateless singletons, any derived
 * state lives in the candidate set, and the selection allocates nothing: a pick into a caller-owned
 * {@link dev.proxypool.core.dispatch.ReusablePick} allocates nothing at all, the value-returning pick
 * only its {@link dev.proxypool.core.dispatch.Picked} and reservation, a failed pick nothing. It must
 * not block, do I/O or read the system clock (times come in as ticker readings).
 */
package dev.proxypool.core.dispatch;
