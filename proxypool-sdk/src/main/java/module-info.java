/**
 * The ProxyPool SDK: the pool embedded in a Java application ({@code dev.proxypool.sdk}), the
 * distribution API's client ({@code dev.proxypool.sdk.remote}), the REST API's bodies it and the
 * server share ({@code dev.proxypool.sdk.rest}), the provider SPI ({@code dev.proxypool.sdk.provider})
 * and the configuration, credential and HTTP-client helpers those signatures use.
 *
 * <p>Everything else (the engine and the embedded pool that holds it, collection pipeline, dialers,
 * validator, Redis store, cluster coordination) is exported to the server and the CLI only, by
 * qualified exports: they are named modules, so the compiler refuses any other package of this
 * module in their code, and an application never sees these packages.
 */
@SuppressWarnings(
        "module") // the qualified exports name dev.proxypool.server and dev.proxypool.cli, compiled after this module
module dev.proxypool.sdk {
    requires transitive dev.proxypool.core;
    requires transitive io.helidon.webclient;
    requires com.fasterxml.jackson.databind;
    requires io.helidon.config;
    requires io.helidon.config.yaml;
    requires org.yaml.snakeyaml;
    requires io.helidon.http;
    requires redis.clients.jedis;
    requires java.management;
    requires transitive java.net.http;
    requires jdk.httpserver;

    exports dev.proxypool.sdk;
    exports dev.proxypool.sdk.remote;
    exports dev.proxypool.sdk.provider;
    exports dev.proxypool.sdk.config;
    exports dev.proxypool.sdk.credentials;
    exports dev.proxypool.sdk.http;
    exports dev.proxypool.sdk.rest;

    // The implementation: for the server and the CLI only.
    exports dev.proxypool.sdk.asn to
            dev.proxypool.server,
            dev.proxypool.cli;
    exports dev.proxypool.sdk.coordination to
            dev.proxypool.server,
            dev.proxypool.cli;
    exports dev.proxypool.sdk.dial to
            dev.proxypool.server,
            dev.proxypool.cli;
    exports dev.proxypool.sdk.engine to
            dev.proxypool.server,
            dev.proxypool.cli;
    exports dev.proxypool.sdk.json to
            dev.proxypool.server,
            dev.proxypool.cli;
    exports dev.proxypool.sdk.lock to
            dev.proxypool.server,
            dev.proxypool.cli;
    exports dev.proxypool.sdk.pipeline to
            dev.proxypool.server,
            dev.proxypool.cli;
    exports dev.proxypool.sdk.probe to
            dev.proxypool.server,
            dev.proxypool.cli;
    exports dev.proxypool.sdk.redis to
            dev.proxypool.server,
            dev.proxypool.cli;
    exports dev.proxypool.sdk.tls to
            dev.proxypool.server,
            dev.proxypool.cli;
    exports dev.proxypool.sdk.validate to
            dev.proxypool.server,
            dev.proxypool.cli;

    opens dev.proxypool.sdk.rest to
            com.fasterxml.jackson.databind;
}
