/**
 * In-process fakes of everything a proxy pool talks to, for tests and for {@code proxypool demo}:
 * upstream proxies ({@link dev.proxypool.testkit.FakeHttpProxy} with CONNECT and TLS,
 * {@link dev.proxypool.testkit.FakeSocks4Proxy}, {@link dev.proxypool.testkit.FakeSocks5Proxy}),
 * an origin with the product's echo shape ({@link dev.proxypool.testkit.FakeOrigin}), an open port
 * that is not a proxy ({@link dev.proxypool.testkit.NotAProxy}), and fault injection common to all
 * ({@link dev.proxypool.testkit.Faults}).
 *
 * <p>Every server binds a loopback address on an ephemeral port, serves each connection on its own
 * virtual thread with plain blocking I/O, counts accepted and open connections so a test can prove
 * nothing leaked, and is {@link java.lang.AutoCloseable}. JDK only (plus the core model for
 * {@code asProxy()} helpers). All threads are virtual, hence daemon: a program that only runs fakes
 * (such as a demo) keeps its main thread alive itself.
 */
package dev.proxypool.testkit;
