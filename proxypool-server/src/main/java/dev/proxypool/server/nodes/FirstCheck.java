package dev.proxypool.server.nodes;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.probe.ProberSettings;
import dev.proxypool.sdk.validate.ExchangeException;
import dev.proxypool.sdk.validate.HttpReply;
import dev.proxypool.sdk.validate.ProxiedExchange;
import java.net.URI;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * The first check of a newly registered node (docs/design.md H10b): one real request through it to
 * the first active-probe target (the server's own echo unless configured), as an active probe
 * makes it. Until it reports, the node's proxy holds no client request.
 */
@FunctionalInterface
public interface FirstCheck {

    /**
     * What the check found.
     *
     * @param failure why the node failed, empty when it served the request
     * @param latency the exchange's latency when it served it
     */
    record Outcome(Optional<FailureKind> failure, Duration latency) {}

    /** Sends the check through {@code proxy}; blocks for at most the probe timeout. */
    Outcome run(Proxy proxy);

    /** The check through {@code pool}'s dialer to its first {@code health.active.targets} entry. */
    static FirstCheck through(ProxyPool pool) {
        ProberSettings settings = ProberSettings.from(pool.config().health());
        URI target = settings.targets().getFirst();
        SSLContext tls;
        try {
            tls = SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no default TLS context for the node check", e);
        }
        Ticker ticker = EmbeddedProxyPool.engineOf(pool).ticker();
        ProxiedExchange exchange = new ProxiedExchange(EmbeddedProxyPool.dialerOf(pool), tls, ticker);
        return proxy -> {
            try {
                HttpReply reply = exchange.get(proxy, target, settings.timeout(), false);
                if (reply.delivered()) {
                    return new Outcome(Optional.empty(), reply.latency());
                }
                return new Outcome(
                        Optional.of(reply.proxyFailure().orElse(FailureKind.UPSTREAM_UNREACHABLE)), Duration.ZERO);
            } catch (ExchangeException e) {
                return new Outcome(Optional.of(e.kind()), Duration.ZERO);
            }
        };
    }
}
