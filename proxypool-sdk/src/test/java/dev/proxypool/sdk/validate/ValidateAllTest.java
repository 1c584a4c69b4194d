package dev.proxypool.sdk.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.dial.DialPolicy;
import dev.proxypool.sdk.dial.UpstreamDialer;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeServer;
import dev.proxypool.testkit.TestPorts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Bounded concurrency and bounded memory: many candidates through a small queue, counted from outside. */
@Tag("slow")
class ValidateAllTest {

    private static final int QUEUE = 64;
    private static final int WORKERS = 32;

    /**
     * A lazy source that counts, from outside the validator, how many candidates it handed out whose
     * result has not come back yet: the candidates the validator holds.
     */
    static final class CountingSource implements Iterator<Proxy> {
        private final int size;
        private final IntFunction<Proxy> make;
        private final AtomicInteger outstanding = new AtomicInteger();
        private final AtomicInteger maxOutstanding = new AtomicInteger();
        private int next;

        CountingSource(int size, IntFunction<Proxy> make) {
            this.size = size;
            this.make = make;
        }

        @Override
        public boolean hasNext() {
            return next < size;
        }

        @Override
        public Proxy next() {
            if (next >= size) {
                throw new NoSuchElementException();
            }
            maxOutstanding.accumulateAndGet(outstanding.incrementAndGet(), Math::max);
            return make.apply(next++);
        }

        void returned() {
            outstanding.decrementAndGet();
        }
    }

    private static Proxy candidate(Protocol protocol, String host, int port, CredentialRef ref, int i) {
        return Proxy.builder(new ProxyKey(protocol, host, port, ref))
                .id("c" + i)
                .build();
    }

    @Test
    void twoThousandCandidatesThroughASmallQueueCompleteWithCorrectCounts() throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeServer http = Kind.HTTP.start();
                FakeServer socks = Kind.SOCKS5_AUTH.start();
                FakeHttpProxy via = FakeHttpProxy.builder()
                        .outboundFrom(Kind.EXIT)
                        .headers(FakeHttpProxy.HeaderBehaviour.ADD_VIA)
                        .start();
                FakeHttpProxy leak = FakeHttpProxy.builder()
                        .outboundFrom(Kind.EXIT)
                        .headers(FakeHttpProxy.HeaderBehaviour.LEAK_FORWARDED_FOR)
                        .start()) {
            int closed = TestPorts.closedPort();
            Validator v = Validator.builder(Kind.dialer())
                    .settings(ValidatorSettings.builder()
                            .echoUrl(echo.url())
                            .concurrency(WORKERS)
                            .queueCapacity(QUEUE)
                            .timeout(Duration.ofSeconds(8))
                            .build())
                    .start();
            int n = 2_000;
            CountingSource source = new CountingSource(n, i -> switch (i % 5) {
                case 0 -> candidate(Protocol.HTTP, http.host(), http.port(), CredentialRef.NONE, i);
                case 1 -> candidate(Protocol.SOCKS5, socks.host(), socks.port(), Kind.GOOD, i);
                case 2 -> candidate(Protocol.HTTP, via.host(), via.port(), CredentialRef.NONE, i);
                case 3 -> candidate(Protocol.HTTP, leak.host(), leak.port(), CredentialRef.NONE, i);
                default -> candidate(Protocol.HTTP, "127.0.0.1", closed, CredentialRef.NONE, i);
            });
            Set<String> seen = Collections.synchronizedSet(new HashSet<>());
            AtomicInteger concurrentSinkCalls = new AtomicInteger();
            AtomicInteger maxConcurrentSinkCalls = new AtomicInteger();
            List<ValidationProgress> progress = new ArrayList<>();
            ValidationSummary s = v.validateAll(
                    source,
                    n,
                    r -> {
                        maxConcurrentSinkCalls.accumulateAndGet(concurrentSinkCalls.incrementAndGet(), Math::max);
                        assertTrue(
                                seen.add(r.proxy().id()),
                                "a result twice for " + r.proxy().id());
                        int i = Integer.parseInt(r.proxy().id().substring(1));
                        Object expected = switch (i % 5) {
                            case 0, 1 -> Verdict.ELITE;
                            case 2 -> Verdict.ANONYMOUS;
                            case 3 -> RejectReason.ADDRESS_LEAKED;
                            default -> RejectReason.CONNECTION_REFUSED;
                        };
                        Object got = r instanceof ValidationResult.Rejected rej ? rej.reason() : r.verdict();
                        assertEquals(expected, got, r.toString());
                        source.returned();
                        concurrentSinkCalls.decrementAndGet();
                    },
                    progress::add);

            assertEquals(n, seen.size());
            assertEquals(n, s.total());
            assertEquals(800, s.elite());
            assertEquals(400, s.anonymous());
            assertEquals(800, s.rejected());
            assertEquals(
                    Map.of(RejectReason.ADDRESS_LEAKED, 400L, RejectReason.CONNECTION_REFUSED, 400L),
                    s.rejectedByReason());
            assertEquals(1, maxConcurrentSinkCalls.get(), "results are delivered one at a time");
            assertTrue(
                    source.maxOutstanding.get() <= QUEUE + WORKERS,
                    "held " + source.maxOutstanding.get() + " candidates at once, more than queue + workers");
            assertTrue(s.maxHeldCandidates() <= QUEUE + WORKERS, "validator's own count " + s.maxHeldCandidates());
            assertEquals(n, progress.size());
            for (int i = 0; i < n; i++) {
                assertEquals(i + 1, progress.get(i).done());
                assertEquals(n, progress.get(i).total());
            }
            ValidationProgress last = progress.get(n - 1);
            assertEquals(800 + 400 + 800, last.elite() + last.anonymous() + last.rejected());
            assertEquals(n, v.counters().total());
            System.out.printf(
                    "validateAll: %d candidates, queue %d, concurrency %d: %.0f candidates/s (%d ms), "
                            + "at most %d held%n",
                    n, QUEUE, WORKERS, s.candidatesPerSecond(), s.elapsed().toMillis(), source.maxOutstanding.get());
        }
    }

    @Test
    void aHundredThousandCandidatesRunInConstantMemory() throws Exception {
        try (EchoServer echo = EchoServer.start()) {
            Validator v = Validator.builder(Kind.dialer())
                    .settings(ValidatorSettings.builder()
                            .echoUrl(echo.url())
                            .concurrency(WORKERS)
                            .queueCapacity(QUEUE)
                            .build())
                    .start();
            int n = 100_000;
            // credentials missing: the full pipeline (queue, workers, deadline thread) without sockets
            CountingSource source =
                    new CountingSource(n, i -> candidate(Protocol.SOCKS5, "192.0.2.1", 1080, Kind.MISSING, i));
            AtomicLong results = new AtomicLong();
            ValidationSummary s = v.validateAll(source, r -> {
                results.incrementAndGet();
                source.returned();
            });
            assertEquals(n, results.get());
            assertEquals(Map.of(RejectReason.CREDENTIALS_MISSING, (long) n), s.rejectedByReason());
            assertTrue(source.maxOutstanding.get() <= QUEUE + WORKERS, "held " + source.maxOutstanding.get());
            System.out.printf(
                    "validateAll: %d candidates without sockets: %.0f candidates/s, at most %d held%n",
                    n, s.candidatesPerSecond(), source.maxOutstanding.get());
        }
    }

    @Test
    void aStreamSourceIsConsumedLazily() throws Exception {
        try (EchoServer echo = EchoServer.start()) {
            Validator v = Validator.builder(Kind.dialer())
                    .settings(ValidatorSettings.builder()
                            .echoUrl(echo.url())
                            .concurrency(2)
                            .queueCapacity(3)
                            .build())
                    .start();
            AtomicInteger made = new AtomicInteger();
            AtomicInteger maxAhead = new AtomicInteger();
            AtomicInteger delivered = new AtomicInteger();
            ValidationSummary s = v.validateAll(
                    IntStream.range(0, 500).mapToObj(i -> {
                        maxAhead.accumulateAndGet(made.incrementAndGet() - delivered.get(), Math::max);
                        return candidate(Protocol.HTTP, "192.0.2.1", 8080, Kind.MISSING, i);
                    }),
                    r -> delivered.incrementAndGet());
            assertEquals(500, s.total());
            assertTrue(maxAhead.get() <= 5, "the stream ran " + maxAhead.get() + " ahead of the results");
        }
    }

    @Test
    void aFailingSinkStopsTheRunAndItsExceptionComesBack() throws Exception {
        try (EchoServer echo = EchoServer.start()) {
            Validator v = Validator.builder(Kind.dialer())
                    .settings(ValidatorSettings.builder()
                            .echoUrl(echo.url())
                            .concurrency(4)
                            .queueCapacity(4)
                            .build())
                    .start();
            CountingSource source =
                    new CountingSource(10_000, i -> candidate(Protocol.HTTP, "192.0.2.1", 8080, Kind.MISSING, i));
            IllegalStateException boom = new IllegalStateException("sink failed");
            AtomicInteger calls = new AtomicInteger();
            IllegalStateException e = assertThrows(
                    IllegalStateException.class,
                    () -> v.validateAll(source, r -> {
                        if (calls.incrementAndGet() == 10) {
                            throw boom;
                        }
                    }));
            assertSame(boom, e);
            assertEquals(10, calls.get(), "no delivery after the failure");
            assertTrue(source.next < 100, "the source was pulled on after the failure: " + source.next);
        }
    }

    @Test
    void aFailingSourceStopsTheRun() throws Exception {
        try (EchoServer echo = EchoServer.start()) {
            Validator v = Validator.builder(Kind.dialer())
                    .settings(ValidatorSettings.of(echo.url()))
                    .start();
            Iterator<Proxy> broken = new Iterator<>() {
                int i;

                @Override
                public boolean hasNext() {
                    return true;
                }

                @Override
                public Proxy next() {
                    if (++i == 50) {
                        throw new IllegalArgumentException("line 50 is not a proxy");
                    }
                    return candidate(Protocol.HTTP, "192.0.2.1", 8080, Kind.MISSING, i);
                }
            };
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> v.validateAll(broken, r -> {}));
            assertEquals("line 50 is not a proxy", e.getMessage());
        }
    }

    @Test
    void anInterruptStopsTheWorkersAndTheRun() throws Exception {
        try (EchoServer echo = EchoServer.start();
                FakeServer hang = Kind.SOCKS5.start(Kind.EXIT, dev.proxypool.testkit.Faults.NONE.hang())) {
            UpstreamDialer patient = Kind.dialer(new DialPolicy(Duration.ofSeconds(30), Duration.ofSeconds(30)));
            Validator v = Validator.builder(patient)
                    .settings(ValidatorSettings.builder()
                            .echoUrl(echo.url())
                            .concurrency(4)
                            .queueCapacity(4)
                            .timeout(Duration.ofSeconds(30))
                            .build())
                    .start();
            AtomicInteger results = new AtomicInteger();
            java.util.concurrent.CompletableFuture<Throwable> outcome = new java.util.concurrent.CompletableFuture<>();
            Thread runner = Thread.ofVirtual().start(() -> {
                try {
                    v.validateAll(
                            new CountingSource(
                                    100,
                                    i -> candidate(Protocol.SOCKS5, hang.host(), hang.port(), CredentialRef.NONE, i)),
                            r -> results.incrementAndGet());
                    outcome.complete(null);
                } catch (Throwable t) {
                    outcome.complete(t);
                }
            });
            assertTrue(hang.awaitOpen(4, Duration.ofSeconds(10)), "four workers should be stuck on the hanging proxy");
            runner.interrupt();
            Throwable t = outcome.get(5, java.util.concurrent.TimeUnit.SECONDS);
            assertTrue(t instanceof InterruptedException, String.valueOf(t));
            assertEquals(0, results.get(), "nothing is delivered once the run is interrupted");
            assertTrue(hang.awaitIdle(Duration.ofSeconds(5)), "an interrupted run left connections open");
        }
    }
}
