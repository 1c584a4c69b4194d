/**
 * The gateway's access layer (docs/design.md#security, #connection-limits L5): who is calling and may they go there.
 *
 * <ul>
 *   <li>{@link dev.proxypool.server.access.ClientAuthenticator} — {@code Proxy-Authorization: Basic}
 *       against hashed client secrets (407 when missing or wrong), the anonymous modes, and
 *       {@code Authorization: Bearer} tokens for the REST API;</li>
 *   <li>{@link dev.proxypool.server.access.UsernameParser} / {@link dev.proxypool.server.access.UsernameOptions}
 *       — the commercial username convention {@code alice-session-abc123-country-us};
 *       {@link dev.proxypool.server.access.SessionChoice} merges it with the session header;</li>
 *   <li>{@link dev.proxypool.core.limits.RateLimiter} — per-client token bucket (429 {@code rate_limited});</li>
 *   <li>{@link dev.proxypool.core.security.DestinationPolicy} — the SSRF check (403
 *       {@code destination_denied} with a {@link dev.proxypool.core.security.DenyReason}), and the
 *       resolve-once address for {@code onNoCandidate: direct}.</li>
 * </ul>
 * Order per request: authenticate, rate-limit, check the destination, then route.
 */
package dev.proxypool.server.access;
