package dev.proxypool.sdk.validate;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import dev.proxypool.sdk.dial.DialPolicy;
import dev.proxypool.sdk.dial.UpstreamDialer;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeServer;
import dev.proxypool.testkit.FakeSocks4Proxy;
import dev.proxypool.testkit.FakeSocks5Proxy;
import dev.proxypool.testkit.Faults;
import dev.proxypool.testkit.TestTls;
import java.net.InetAddress;

/** Every kind of upstream, with and without auth, as test-kit fakes whose exit is {@link #EXIT}. */
enum Kind {
    HTTP(Protocol.HTTP, false),
    HTTP_AUTH(Protocol.HTTP, true),
    HTTPS(Protocol.HTTPS, false),
    HTTPS_AUTH(Protocol.HTTPS, true),
    SOCKS4(Protocol.SOCKS4, false),
    SOCKS4_USERID(Protocol.SOCKS4, true),
    SOCKS5(Protocol.SOCKS5, false),
    SOCKS5_AUTH(Protocol.SOCKS5, true);

    /** The exit address of a well-behaved fake: not the validator's own 127.0.0.1. */
    static final InetAddress EXIT = InetAddress.ofLiteral("127.0.0.2");

    static final String USER = "alice";
    static final String PASSWORD = "s3cret-Pw";
    static final CredentialRef GOOD = new CredentialRef("good");
    static final CredentialRef WRONG = new CredentialRef("wrong");
    static final CredentialRef MISSING = new CredentialRef("missing");
    /** good: the fakes' credentials; wrong: another user and password (a wrong USERID for SOCKS4). */
    static final StaticCredentialStore STORE = StaticCredentialStore.empty()
            .with(GOOD.name(), USER, PASSWORD)
            .with(WRONG.name(), "mallory", "not-the-password");

    final Protocol protocol;
    final boolean auth;

    Kind(Protocol protocol, boolean auth) {
        this.protocol = protocol;
        this.auth = auth;
    }

    /** A well-behaved fake exiting from {@link #EXIT}. */
    FakeServer start() {
        return start(EXIT, Faults.NONE);
    }

    /** @param exit the outbound address, null for the default (the validator's own: a transparent proxy) */
    FakeServer start(InetAddress exit, Faults faults) {
        return switch (protocol) {
            case HTTP, HTTPS -> {
                FakeHttpProxy.Builder b = FakeHttpProxy.builder().faults(faults);
                if (exit != null) {
                    b.outboundFrom(exit);
                }
                if (auth) {
                    b.basicAuth(USER, PASSWORD);
                }
                yield (protocol == Protocol.HTTPS ? b.tls() : b).start();
            }
            case SOCKS4 -> {
                FakeSocks4Proxy.Builder b = FakeSocks4Proxy.builder().faults(faults);
                if (exit != null) {
                    b.outboundFrom(exit);
                }
                yield (auth ? b.requireUserId(USER) : b).start();
            }
            case SOCKS5 -> {
                FakeSocks5Proxy.Builder b = FakeSocks5Proxy.builder().faults(faults);
                if (exit != null) {
                    b.outboundFrom(exit);
                }
                yield (auth ? b.userPass(USER, PASSWORD) : b).start();
            }
        };
    }

    /** The fake as the core sees it, with {@link #GOOD} credentials when it needs auth. */
    Proxy proxy(FakeServer fake) {
        return proxy(fake, auth ? GOOD : CredentialRef.NONE);
    }

    Proxy proxy(FakeServer fake, CredentialRef ref) {
        return proxyAt(protocol, fake.host(), fake.port(), ref);
    }

    static Proxy proxyAt(Protocol protocol, String host, int port, CredentialRef ref) {
        return Proxy.builder(new ProxyKey(protocol, host, port, ref)).build();
    }

    static UpstreamDialer dialer() {
        return dialer(DialPolicy.DEFAULTS);
    }

    static UpstreamDialer dialer(DialPolicy policy) {
        return UpstreamDialer.builder(STORE)
                .policy(policy)
                .proxyTls(TestTls.clientContext())
                .build();
    }
}
