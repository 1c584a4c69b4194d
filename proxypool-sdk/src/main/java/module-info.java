/**
 * The ProxyPool SDK: the pool embedded in a Java application ({@code dev.proxypool.sdk}), the
 * distribution API's client ({@code dev.proxypool.sdk.remote}), the REST API's bodies it and the
 * server share ({@code dev.proxypool.sdk.rest}), the provider SPI ({@code dev.proxypool.sdk.provider})
 * and the configuration, credential and HTTP-client helpers those signatures use.
 *
 * <p>Everything else (the engine, collection pipeline, dialers, validator, Redis store, cluster
 * coordination and the {@code internal} bridge) is not exported: the server and the CLI use it from
 * the class path, where module exports are not enforced.
 */
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

    opens dev.proxypool.sdk.rest to
            com.fasterxml.jackson.databind;
}
