/**
 * PEM files for TLS: certificate chains, PKCS#8 private keys (RSA and EC) and trust anchors, read
 * with the JDK's own {@code CertificateFactory} and {@code KeyFactory}, and the modern protocol and
 * cipher-suite defaults every ProxyPool TLS endpoint uses (TLS 1.2 and 1.3, forward-secret AEAD
 * suites only). Not exported: the server's listeners, the CLI and {@code DistributionClient} use it.
 */
package dev.proxypool.sdk.tls;
