package dev.proxypool.server.gateway;

/**
 * Told about every gateway request, CONNECT tunnel and SOCKS5 connection once it ended, denials
 * included: the same moment and the same facts as the access log line ({@link AccessLog}), for the
 * server's in-memory views (the admin API's request log and error breakdown). Called on the
 * connection's own thread after the client was answered; implementations are thread-safe, cheap
 * and never throw.
 */
public interface ExchangeListener {

    /** One exchange ended. */
    void ended(ExchangeRecord exchange);
}
