/**
 * The local world of {@code proxypool demo}, built on the JDK only: an origin over HTTP and HTTPS
 * ({@link dev.proxypool.cli.demo.DemoOrigin}, with a self-signed certificate made at start by
 * {@link dev.proxypool.cli.demo.DemoTls}), an HTTP forward proxy with {@code CONNECT} and optional
 * Basic auth ({@link dev.proxypool.cli.demo.DemoHttpProxy}) and a SOCKS5 proxy without
 * authentication ({@link dev.proxypool.cli.demo.DemoSocksProxy}). Everything listens on
 * {@code 127.0.0.1} on a free port and stops on {@code close()}.
 *
 * <p>This is product code of the demo, not a test double: it has no fault injection and no
 * counters, and the test kit ({@code proxypool-testkit}) stays out of the distribution.
 */
package dev.proxypool.cli.demo;
