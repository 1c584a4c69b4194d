package dev.proxypool.server.gateway;

/**
 * What an {@link ExchangeListener} learns about one ended exchange: opaque names and closed sets
 * only. No secret, no proxy address, no destination: the client's address is the only address,
 * and its consumers mask it before showing it.
 *
 * @param kind     {@code http}, {@code connect} or {@code socks}
 * @param peer     the client's IP address as the gateway saw it (unmasked: mask before display)
 * @param client   the authenticated client's name, or {@code null} when authentication failed or
 *                 did not happen
 * @param method   the request method ({@code CONNECT}, {@code SOCKS5} for a SOCKS5 connection), or
 *                 {@code null} when the request line could not be read
 * @param status   the status sent to the client, 0 when none was
 * @param reason   the {@code X-ProxyPool-Error} reason ({@link GatewayErrors}), or {@code null}
 * @param routing  the routing that matched, or {@code none}
 * @param upstream the upstream of the last proxy tried, or {@code none}
 * @param proxy    the opaque id of the last proxy tried, or {@code none}
 * @param attempts attempts made (0 when none was routed)
 * @param nanos    how long it lasted
 * @param result   how it ended
 * @param attemptedUser the username a refused {@code Proxy-Authorization} named (never its
 *                 password), or {@code null} when authentication succeeded or named no one
 * @param bytesFromClient every byte the client sent on this exchange (request head and body; for a
 *                 tunnel its CONNECT head or SOCKS5 handshake and every byte it relayed upstream)
 * @param bytesToClient every byte sent to the client on this exchange (response head and body, an
 *                 error page; for a tunnel its {@code 200} or SOCKS5 replies and every byte it relayed
 *                 down)
 */
public record ExchangeRecord(
        String kind,
        String peer,
        String client,
        String method,
        int status,
        String reason,
        String routing,
        String upstream,
        String proxy,
        int attempts,
        long nanos,
        ExchangeResult result,
        String attemptedUser,
        long bytesFromClient,
        long bytesToClient) {

    /** An exchange whose bytes were not counted (0 both ways). */
    public ExchangeRecord(
            String kind,
            String peer,
            String client,
            String method,
            int status,
            String reason,
            String routing,
            String upstream,
            String proxy,
            int attempts,
            long nanos,
            ExchangeResult result,
            String attemptedUser) {
        this(
                kind,
                peer,
                client,
                method,
                status,
                reason,
                routing,
                upstream,
                proxy,
                attempts,
                nanos,
                result,
                attemptedUser,
                0,
                0);
    }

    /** An exchange without a refused username. */
    public ExchangeRecord(
            String kind,
            String peer,
            String client,
            String method,
            int status,
            String reason,
            String routing,
            String upstream,
            String proxy,
            int attempts,
            long nanos,
            ExchangeResult result) {
        this(kind, peer, client, method, status, reason, routing, upstream, proxy, attempts, nanos, result, null);
    }

    /**
     * This exchange with its byte counts (negative counts taken as 0).
     *
     * @param fromClient bytes the client sent
     * @param toClient   bytes sent to the client
     * @return the same record with {@link #bytesFromClient()} and {@link #bytesToClient()} set
     */
    public ExchangeRecord withBytes(long fromClient, long toClient) {
        return new ExchangeRecord(
                kind,
                peer,
                client,
                method,
                status,
                reason,
                routing,
                upstream,
                proxy,
                attempts,
                nanos,
                result,
                attemptedUser,
                Math.max(0, fromClient),
                Math.max(0, toClient));
    }

    static ExchangeRecord of(
            String kind,
            String peer,
            String client,
            String method,
            int status,
            String reason,
            Explain ex,
            long nanos,
            ExchangeResult result) {
        return of(kind, peer, client, method, status, reason, ex, nanos, result, null);
    }

    static ExchangeRecord of(
            String kind,
            String peer,
            String client,
            String method,
            int status,
            String reason,
            Explain ex,
            long nanos,
            ExchangeResult result,
            String attemptedUser) {
        Explain e = ex == null ? Explain.NONE : ex;
        return new ExchangeRecord(
                kind,
                peer,
                client,
                method,
                status,
                reason,
                e.routing(),
                e.attempts() == 0 ? "none" : e.upstream(),
                e.attempts() == 0 ? "none" : e.proxy(),
                e.attempts(),
                Math.max(0, nanos),
                result == null ? ExchangeResult.ABORTED : result,
                client == null ? attemptedUser : null);
    }
}
