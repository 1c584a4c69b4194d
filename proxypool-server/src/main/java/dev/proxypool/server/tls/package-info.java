/**
 * TLS on the server's listeners ({@code server.gatewayTls}, {@code server.apiTls}): a key manager
 * that reads the PEM certificate and key again when they change on disk, so a rotated certificate
 * reaches new handshakes without a restart, and the server socket factory (gateway) and Helidon
 * {@code Tls} (REST API and console) built on it with the modern defaults of
 * {@code dev.proxypool.sdk.tls.TlsDefaults}.
 */
package dev.proxypool.server.tls;
