package dev.proxypool.sdk.engine;

import dev.proxypool.core.dispatch.PickRequest;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.sticky.StickyDispatch;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-routing state the engine keeps: the reusable base pick request, the routing's filters for
 * request labels (one instance per distinct label set), the sticky table, if any, and the session
 * tables of requests that bring their own idle time ({@link AcquireRequest#sessionIdle()}), one per
 * distinct idle time.
 */
record RouteRuntime(
        RoutingRule rule,
        PickRequest base,
        LabelFilterCache labelFilters,
        StickyDispatch sticky,
        ConcurrentHashMap<Duration, StickyDispatch> ownIdleSessions) {}
