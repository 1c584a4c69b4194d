package dev.proxypool.sdk.engine;

import dev.proxypool.core.dispatch.PickRequest;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.sticky.StickyDispatch;

/**
 * Per-routing state the engine keeps: the reusable base pick request, the routing's filters for
 * request labels (one instance per distinct label set), and the sticky table, if any.
 */
record RouteRuntime(RoutingRule rule, PickRequest base, LabelFilterCache labelFilters, StickyDispatch sticky) {}
