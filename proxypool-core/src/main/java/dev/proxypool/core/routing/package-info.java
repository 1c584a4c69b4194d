/**
 * Which rule takes a gateway request: the ordered {@link dev.proxypool.core.routing.RoutingTable} of
 * validated {@link dev.proxypool.core.routing.RoutingRule}s, each with a compiled
 * {@link dev.proxypool.core.routing.Match}, its strategy, retry, sticky and no-candidate policies.
 * Matching is on the hot path: compiled once per configuration, then no regex, no allocation and no
 * boxing per request. A table is immutable; a configuration change builds a new one. It must not pick
 * proxies itself (that is the dispatch package) nor read requests other than through
 * {@link dev.proxypool.core.routing.RequestFacts}.
 */
package dev.proxypool.core.routing;
