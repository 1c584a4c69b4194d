/**
 * The ProxyPool server: the gateway's data plane (Netty event loops), the distribution, lease and
 * admin REST API and console on Helidon SE, metrics, persistence on PostgreSQL, and the assemblies
 * that run them as one process or as control plane and workers.
 *
 * <p>It reaches the SDK's and the core's implementation packages through their qualified exports
 * to this module; a package not exported to it does not compile here. It exports to the CLI only
 * what {@code proxypool serve} and the admin commands need.
 */
module dev.proxypool.server {
    requires dev.proxypool.sdk;
    requires com.fasterxml.jackson.databind;
    requires com.zaxxer.hikari;
    requires io.helidon.common.buffers;
    requires io.helidon.common.concurrency.limits;
    requires io.helidon.common.socket;
    requires io.helidon.common.tls;
    requires io.helidon.common.uri;
    requires io.helidon.config;
    requires io.helidon.health;
    requires io.helidon.http;
    requires io.helidon.metrics.api;
    requires io.helidon.openapi;
    requires io.helidon.service.registry;
    requires io.helidon.webserver;
    requires io.helidon.webserver.observe;
    requires io.helidon.webserver.observe.health;
    requires io.helidon.webserver.observe.metrics;
    requires io.helidon.webserver.staticcontent;
    requires io.netty.buffer;
    requires io.netty.common;
    requires io.netty.handler;
    requires io.netty.transport;
    requires io.netty.transport.classes.epoll;
    requires java.net.http;
    requires java.sql;
    requires jdk.jfr;
    requires jdk.management;
    requires org.jooq;
    requires redis.clients.jedis;

    exports dev.proxypool.server to
            dev.proxypool.cli;
    exports dev.proxypool.server.persistence to
            dev.proxypool.cli;

    provides java.net.spi.InetAddressResolverProvider with
            dev.proxypool.server.NoReverseLookup;
}
