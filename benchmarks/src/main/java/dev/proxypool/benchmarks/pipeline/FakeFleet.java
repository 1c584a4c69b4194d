package dev.proxypool.benchmarks.pipeline;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeServer;
import dev.proxypool.testkit.FakeSocks5Proxy;
import dev.proxypool.testkit.Faults;
import dev.proxypool.testkit.TestPorts;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A few dozen test-kit proxies on loopback, of every behaviour the validator must sort out, and a
 * lazy source of candidates over them: each candidate is a distinct proxy id pointing at one fake,
 * so 100,000 candidates need no 100,000 servers and the source holds nothing per candidate.
 *
 * <p>Mix per 20 candidates: 8 good HTTP and 2 good SOCKS5 (elite: they exit from 127.0.0.2), 3 slow
 * HTTP (+{@value #SLOW_MILLIS} ms before answering; elite), 3 leaking HTTP ({@code X-Forwarded-For}
 * with the validator's address: rejected), 1 transparent HTTP (exits from the validator's own
 * address: rejected) and 3 dead (a closed port: connection refused).
 */
final class FakeFleet implements AutoCloseable {

    static final long SLOW_MILLIS = 100;
    static final InetAddress EXIT = InetAddress.ofLiteral("127.0.0.2");

    enum Kind {
        GOOD_HTTP,
        GOOD_SOCKS5,
        SLOW,
        LEAKING,
        TRANSPARENT,
        DEAD
    }

    private static final Kind[] MIX = {
        Kind.GOOD_HTTP,
        Kind.GOOD_HTTP,
        Kind.GOOD_HTTP,
        Kind.GOOD_HTTP,
        Kind.GOOD_HTTP,
        Kind.GOOD_HTTP,
        Kind.GOOD_HTTP,
        Kind.GOOD_HTTP,
        Kind.GOOD_SOCKS5,
        Kind.GOOD_SOCKS5,
        Kind.SLOW,
        Kind.SLOW,
        Kind.SLOW,
        Kind.LEAKING,
        Kind.LEAKING,
        Kind.LEAKING,
        Kind.TRANSPARENT,
        Kind.DEAD,
        Kind.DEAD,
        Kind.DEAD,
    };

    private final List<FakeServer> servers = new ArrayList<>();
    private final List<List<int[]>> endpoints = new ArrayList<>(); // per kind: {protocol ordinal, port}

    FakeFleet() {
        for (Kind k : Kind.values()) {
            endpoints.add(new ArrayList<>());
        }
        for (int i = 0; i < 12; i++) {
            add(Kind.GOOD_HTTP, FakeHttpProxy.builder().outboundFrom(EXIT).start());
        }
        for (int i = 0; i < 4; i++) {
            add(Kind.GOOD_SOCKS5, FakeSocks5Proxy.builder().outboundFrom(EXIT).start());
        }
        for (int i = 0; i < 6; i++) {
            add(
                    Kind.SLOW,
                    FakeHttpProxy.builder()
                            .outboundFrom(EXIT)
                            .faults(Faults.none().latency(Duration.ofMillis(SLOW_MILLIS)))
                            .start());
        }
        for (int i = 0; i < 6; i++) {
            add(
                    Kind.LEAKING,
                    FakeHttpProxy.builder()
                            .outboundFrom(EXIT)
                            .headers(FakeHttpProxy.HeaderBehaviour.LEAK_FORWARDED_FOR)
                            .start());
        }
        for (int i = 0; i < 2; i++) {
            add(Kind.TRANSPARENT, FakeHttpProxy.builder().start());
        }
        for (int i = 0; i < 6; i++) {
            endpoints.get(Kind.DEAD.ordinal()).add(new int[] {Protocol.HTTP.ordinal(), TestPorts.closedPort()});
        }
    }

    private void add(Kind kind, FakeServer s) {
        servers.add(s);
        Protocol p = s instanceof FakeSocks5Proxy ? Protocol.SOCKS5 : Protocol.HTTP;
        endpoints.get(kind.ordinal()).add(new int[] {p.ordinal(), s.port()});
    }

    /** Fake proxy servers running (dead endpoints are closed ports, not servers). */
    int servers() {
        return servers.size();
    }

    static Kind kindOf(long index) {
        return MIX[(int) (index % MIX.length)];
    }

    /** Candidate {@code index}: id {@code c<index>}, at one fake of its kind. */
    Proxy candidate(long index) {
        List<int[]> of = endpoints.get(kindOf(index).ordinal());
        int[] e = of.get((int) ((index / MIX.length) % of.size()));
        return Proxy.builder(new ProxyKey(Protocol.values()[e[0]], "127.0.0.1", e[1], CredentialRef.NONE))
                .id("c" + index)
                .provider("bench")
                .upstream("bench")
                .build();
    }

    /** {@code count} candidates made on demand. */
    Iterator<Proxy> candidates(long count) {
        return new Iterator<>() {
            private long next;

            @Override
            public boolean hasNext() {
                return next < count;
            }

            @Override
            public Proxy next() {
                if (next >= count) {
                    throw new NoSuchElementException();
                }
                return candidate(next++);
            }
        };
    }

    @Override
    public void close() {
        for (FakeServer s : servers) {
            s.close();
        }
    }
}
