package dev.proxypool.sdk.validate;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.dial.UpstreamDialer;
import java.net.InetAddress;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;

/**
 * Validates candidate proxies over the full path (docs/design.md#collection-pipeline, P6), not an open port: dial the proxy
 * with its real handshake and credentials ({@link UpstreamDialer}), request the project's own echo
 * endpoint through it ({@link ProxiedExchange}), require {@code 200} and the echo JSON, then judge
 * what reached the endpoint: the validator's own address as the peer → rejected
 * ({@code direct_address_seen}); that address in {@code Forwarded}, {@code X-Forwarded-For},
 * {@code X-Real-IP}, {@code Client-IP}, {@code True-Client-IP} (or a few other spellings) →
 * rejected ({@code address_leaked}); proxy markers such as {@code Via} without a leak →
 * {@link Verdict#ANONYMOUS}; neither → {@link Verdict#ELITE}. Every failure has a
 * {@link RejectReason}; a wrong password is {@code auth_rejected}, never retried unauthenticated.
 *
 * <p><b>Which echo URL.</b> With an {@code http://} echo an HTTP(S) proxy forwards the request in
 * absolute form, as the gateway uses it for plain HTTP, so the headers it adds or leaks are seen.
 * With an {@code https://} echo every protocol tunnels ({@code CONNECT} or SOCKS) and TLS hides the
 * request from the proxy: the exit address is still judged, headers cannot be added, and the
 * proxy's {@code CONNECT} support is what gets tested.
 *
 * <p><b>Own addresses.</b> {@link Builder#start()} calls the echo endpoint directly once and keeps
 * the address it reports, plus {@link ValidatorSettings#extraDirectAddresses()}; if that call fails
 * there is no validator ({@link EchoUnavailableException}), since it could not spot a transparent proxy.
 * {@link #refreshDirectAddresses()} repeats it (a dynamic public address).
 *
 * <p><b>Bounded work.</b> {@link #validateAll} runs {@code concurrency} worker virtual threads
 * pulling from a queue of {@code queueCapacity}; the source is pulled lazily, so a run holds at most
 * {@code queueCapacity + concurrency} candidates whatever its size (100,000+ in constant memory),
 * and each candidate has a hard deadline of {@code timeout}. Counters by verdict and reason, per
 * run ({@link ValidationSummary}) and since creation ({@link #counters()}).
 *
 * <p>Thread-safe: {@link #validate} may be called from any number of threads.
 */
public final class Validator {

    private final ValidatorSettings settings;
    private final ProxiedExchange exchange;
    private final Ticker ticker;
    private final ValidationCounters counters = new ValidationCounters();
    private volatile Set<InetAddress> direct;

    private Validator(ValidatorSettings settings, ProxiedExchange exchange, Ticker ticker) {
        this.settings = settings;
        this.exchange = exchange;
        this.ticker = ticker;
    }

    public static Builder builder(UpstreamDialer dialer) {
        return new Builder(dialer);
    }

    public ValidatorSettings settings() {
        return settings;
    }

    /** The addresses that count as the validator's own: learned from the echo endpoint, plus the configured ones. */
    public Set<InetAddress> directAddresses() {
        return direct;
    }

    /** Results since this validator was created, by verdict and reason. */
    public ValidationCounters counters() {
        return counters;
    }

    /** Calls the echo endpoint directly again and replaces the learned address. */
    public void refreshDirectAddresses() throws EchoUnavailableException {
        Set<InetAddress> all = new LinkedHashSet<>();
        all.add(learnOwnAddress());
        for (String extra : settings.extraDirectAddresses()) {
            all.add(Addresses.literal(extra));
        }
        direct = Set.copyOf(all);
    }

    /** Validates one candidate within the deadline; never throws for a bad proxy. */
    public ValidationResult validate(Proxy proxy) {
        Objects.requireNonNull(proxy, "proxy");
        ValidationResult r = judge(proxy);
        counters.record(r);
        return r;
    }

    /**
     * Validates every candidate of {@code candidates} (pulled lazily) with bounded concurrency and
     * memory; see the class comment.
     *
     * @param expectedTotal the source's size for progress lines, or -1 when unknown
     * @param results       receives each result, one call at a time, in completion order
     * @param progress      told after each result, one call at a time
     * @throws InterruptedException when the calling thread is interrupted (the workers are stopped)
     */
    public ValidationSummary validateAll(
            Iterator<? extends Proxy> candidates,
            long expectedTotal,
            Consumer<? super ValidationResult> results,
            ValidationProgress.Listener progress)
            throws InterruptedException {
        Objects.requireNonNull(candidates, "candidates");
        Objects.requireNonNull(results, "results");
        Objects.requireNonNull(progress, "progress");
        ValidationCounters run = new ValidationCounters();
        long start = ticker.read();
        BoundedRun<Proxy, ValidationResult> bounded =
                new BoundedRun<>(settings.concurrency(), settings.queueCapacity(), this::validate, r -> {
                    run.record(r);
                    results.accept(r);
                    progress.onProgress(new ValidationProgress(
                            run.total(),
                            expectedTotal,
                            run.count(Verdict.ELITE),
                            run.count(Verdict.ANONYMOUS),
                            run.count(Verdict.REJECTED),
                            since(start)));
                });
        int maxHeld = bounded.run(candidates);
        return new ValidationSummary(
                run.total(),
                run.count(Verdict.ELITE),
                run.count(Verdict.ANONYMOUS),
                run.count(Verdict.REJECTED),
                run.rejectedByReason(),
                maxHeld,
                since(start));
    }

    public ValidationSummary validateAll(
            Iterator<? extends Proxy> candidates, Consumer<? super ValidationResult> results)
            throws InterruptedException {
        return validateAll(candidates, -1, results, ValidationProgress.Listener.none());
    }

    /**
     * Validates a short list (a dry run's sample) and answers in the list's order, whatever order the
     * checks finish in.
     *
     * @param sample the proxies, distinct ids
     * @return one result per proxy, at the proxy's index
     * @throws InterruptedException when the calling thread is interrupted (the workers are stopped)
     */
    public ValidationResult[] validateInOrder(List<? extends Proxy> sample) throws InterruptedException {
        Map<String, Integer> order = new HashMap<>();
        for (int i = 0; i < sample.size(); i++) {
            order.put(sample.get(i).id(), i);
        }
        ValidationResult[] results = new ValidationResult[sample.size()];
        validateAll(
                sample.iterator(),
                sample.size(),
                r -> results[order.get(r.proxy().id())] = r,
                ValidationProgress.Listener.none());
        return results;
    }

    /** The stream is consumed lazily through its iterator and not closed here. */
    public ValidationSummary validateAll(Stream<? extends Proxy> candidates, Consumer<? super ValidationResult> results)
            throws InterruptedException {
        return validateAll(candidates.iterator(), -1, results, ValidationProgress.Listener.none());
    }

    public ValidationSummary validateAll(
            Collection<? extends Proxy> candidates,
            Consumer<? super ValidationResult> results,
            ValidationProgress.Listener progress)
            throws InterruptedException {
        return validateAll(candidates.iterator(), candidates.size(), results, progress);
    }

    private ValidationResult judge(Proxy proxy) {
        long start = ticker.read();
        HttpReply reply;
        try {
            reply = exchange.get(proxy, settings.echoUrl(), settings.timeout(), true);
        } catch (ExchangeException e) {
            return new ValidationResult.Rejected(
                    proxy, reasonFor(e), Optional.of(e.kind()), Optional.empty(), since(start), e.getMessage());
        } catch (IllegalArgumentException e) { // a socks4 proxy and an IPv6 echo endpoint
            return new ValidationResult.Rejected(
                    proxy,
                    RejectReason.PROTOCOL_ERROR,
                    Optional.empty(),
                    Optional.empty(),
                    since(start),
                    e.getMessage());
        }
        if (reply.status() != 200) {
            Optional<FailureKind> kind = reply.proxyFailure();
            RejectReason reason = kind.map(k -> k == FailureKind.PROXY_AUTH_REJECTED
                            ? RejectReason.AUTH_REJECTED
                            : RejectReason.UPSTREAM_UNREACHABLE)
                    .orElse(RejectReason.BAD_ECHO_RESPONSE);
            return new ValidationResult.Rejected(
                    proxy,
                    reason,
                    Optional.of(kind.orElse(FailureKind.PROTOCOL_ERROR)),
                    Optional.empty(),
                    reply.latency(),
                    "the echo request got HTTP " + reply.status());
        }
        EchoJson.Echo echo;
        InetAddress exit;
        try {
            echo = EchoJson.parse(reply.bodyText());
            exit = Addresses.literal(echo.ip());
            if (exit == null) {
                throw new IllegalArgumentException("the echo 'ip' is not an IP address");
            }
        } catch (IllegalArgumentException e) {
            return new ValidationResult.Rejected(
                    proxy,
                    RejectReason.BAD_ECHO_RESPONSE,
                    Optional.of(FailureKind.PROTOCOL_ERROR),
                    Optional.empty(),
                    reply.latency(),
                    e.getMessage());
        }
        Exposure.Finding f = Exposure.judge(exit, echo, direct);
        if (f.reason() != null) {
            return new ValidationResult.Rejected(
                    proxy, f.reason(), Optional.empty(), Optional.of(echo.ip()), reply.latency(), f.detail());
        }
        return new ValidationResult.Accepted(proxy, f.anonymity(), echo.ip(), reply.latency(), f.detail());
    }

    /** The reason code of a network failure. */
    static RejectReason reasonFor(ExchangeException e) {
        if (e.step() == ExchangeStep.CREDENTIALS) {
            return RejectReason.CREDENTIALS_MISSING;
        }
        return switch (e.kind()) {
            case PROXY_AUTH_REJECTED -> RejectReason.AUTH_REJECTED;
            case CONNECTION_REFUSED -> RejectReason.CONNECTION_REFUSED;
            case CONNECT_TIMEOUT ->
                e.step() == ExchangeStep.CONNECT && !e.deadlineExceeded()
                        ? RejectReason.CONNECT_TIMEOUT
                        : RejectReason.TIMEOUT;
            case SLOW_BODY -> RejectReason.TIMEOUT;
            case TLS_FAILURE -> RejectReason.TLS_FAILURE;
            case PROTOCOL_ERROR -> RejectReason.PROTOCOL_ERROR;
            case CONNECTION_RESET -> RejectReason.CONNECTION_RESET;
            case UPSTREAM_UNREACHABLE -> RejectReason.UPSTREAM_UNREACHABLE;
        };
    }

    private InetAddress learnOwnAddress() throws EchoUnavailableException {
        String where = "the echo endpoint " + settings.echoUrl();
        HttpReply reply;
        try {
            reply = exchange.getDirect(settings.echoUrl(), settings.timeout());
        } catch (ExchangeException e) {
            throw new EchoUnavailableException("cannot learn the validator's own address: " + e.getMessage());
        }
        if (reply.status() != 200) {
            throw new EchoUnavailableException(where + " answered HTTP " + reply.status() + " to a direct request");
        }
        try {
            EchoJson.Echo echo = EchoJson.parse(reply.bodyText());
            InetAddress a = Addresses.literal(echo.ip());
            if (a == null) {
                throw new IllegalArgumentException("its 'ip' is not an IP address");
            }
            return a;
        } catch (IllegalArgumentException e) {
            throw new EchoUnavailableException(where + " did not answer with the echo JSON: " + e.getMessage());
        }
    }

    private Duration since(long start) {
        return Duration.ofNanos(Math.max(0, ticker.read() - start));
    }

    /** Options of a {@link Validator}; {@link #start()} learns the own address and returns it. */
    public static final class Builder {
        private final UpstreamDialer dialer;
        private ValidatorSettings settings = ValidatorSettings.DEFAULTS;
        private SSLContext echoTls;
        private Ticker ticker = Ticker.system();

        private Builder(UpstreamDialer dialer) {
            this.dialer = Objects.requireNonNull(dialer, "dialer");
        }

        public Builder settings(ValidatorSettings s) {
            this.settings = Objects.requireNonNull(s, "validator settings");
            return this;
        }

        /** Trust for an {@code https://} echo URL; default the JVM's default context. */
        public Builder echoTls(SSLContext context) {
            this.echoTls = Objects.requireNonNull(context, "echo TLS context");
            return this;
        }

        /** Measures latency and deadlines; default the system ticker. */
        public Builder ticker(Ticker t) {
            this.ticker = Objects.requireNonNull(t, "ticker");
            return this;
        }

        /**
         * Calls the echo endpoint directly to learn the validator's own address, then returns the validator.
         *
         * @throws EchoUnavailableException when the echo endpoint cannot be reached or answers wrongly
         */
        public Validator start() throws EchoUnavailableException {
            SSLContext tls = echoTls;
            if (tls == null) {
                try {
                    tls = SSLContext.getDefault();
                } catch (NoSuchAlgorithmException e) {
                    throw new IllegalStateException("the JVM has no default TLS context", e);
                }
            }
            Validator v = new Validator(settings, new ProxiedExchange(dialer, tls, ticker), ticker);
            v.refreshDirectAddresses();
            return v;
        }
    }
}
