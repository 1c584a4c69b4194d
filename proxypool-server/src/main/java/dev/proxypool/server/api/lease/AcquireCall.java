package dev.proxypool.server.api.lease;

import dev.proxypool.core.extract.ExtractionFilter;
import java.time.Duration;

/**
 * A parsed, validated {@code POST /v1/proxy/acquire} body with its defaults applied: two bodies
 * asking the same thing are equal (the idempotency comparison).
 *
 * @param host    the target host ("" when not given): the routing's match, the consistent-hash key
 *                unless {@code key} is given, and the domain whose bans are respected
 * @param key     an explicit consistent-hash key, "" when not given
 * @param routing the routing to use, "" to choose it as for a CONNECT to {@code host:443}
 * @param filter  the selection (labels, upstream, protocol), as the Distribution API's {@code filter}
 * @param session the session id, "" for none
 * @param hold    how long the lease holds the proxy
 */
record AcquireCall(String host, String key, String routing, ExtractionFilter filter, String session, Duration hold) {}
