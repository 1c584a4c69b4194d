package dev.proxypool.sdk.pipeline;

import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.asn.AsnDatabaseHolder;
import dev.proxypool.sdk.asn.AsnStatus;
import dev.proxypool.sdk.validate.EchoUnavailableException;
import dev.proxypool.sdk.validate.ValidationProgress;
import dev.proxypool.sdk.validate.ValidationResult;
import dev.proxypool.sdk.validate.Validator;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Steps 2 and 3 of the pipeline: the full-path {@link Validator}, then the exit network from the
 * local ASN database. Fails closed: when the echo endpoint cannot be reached, or the ASN database
 * is missing, corrupt or stale, nothing passes, so no new validated proxies are published and the
 * previous pool stays (docs/design.md#collection-pipeline, P9).
 */
public final class ValidatorStage implements ValidationStage {

    private static final Logger LOG = System.getLogger(ValidatorStage.class.getName());

    /** Starts a validator on demand (it needs the echo endpoint up, which may start after us). */
    @FunctionalInterface
    public interface ValidatorFactory {
        Validator start() throws EchoUnavailableException;
    }

    private final ValidatorFactory factory;
    private final Optional<AsnDatabaseHolder> asn;
    private volatile Validator validator;

    public ValidatorStage(ValidatorFactory factory, Optional<AsnDatabaseHolder> asn) {
        this.factory = factory;
        this.asn = asn;
    }

    @Override
    public List<Validated> validate(List<Proxy> candidates) {
        return validate(candidates, reason -> {});
    }

    @Override
    public List<Validated> validate(List<Proxy> candidates, Consumer<String> rejected) {
        if (asn.isPresent()) {
            AsnStatus status = asn.get().reload();
            if (!status.publishable()) {
                LOG.log(
                        Level.WARNING,
                        "ASN database not usable ("
                                + status.lastError().map(Object::toString).orElse("stale")
                                + "): keeping the previous pool, publishing no newly validated proxies");
                candidates.forEach(c -> rejected.accept("asn_database_unusable"));
                return List.of();
            }
        }
        Validator v = validator();
        if (v == null) {
            candidates.forEach(c -> rejected.accept("echo_unavailable"));
            return List.of();
        }
        List<Validated> passed = Collections.synchronizedList(new ArrayList<>());
        try {
            v.validateAll(
                    candidates,
                    result -> {
                        if (result instanceof ValidationResult.Accepted ok) {
                            Proxy p = ok.validatedProxy();
                            ExitNetwork net =
                                    asn.map(h -> h.lookup(ok.exitIp())).orElse(p.exitNetwork());
                            passed.add(new Validated(
                                    p.toBuilder().exitNetwork(net).build(),
                                    ok.latency().toNanos() / 1e6));
                        } else if (result instanceof ValidationResult.Rejected no) {
                            rejected.accept(no.reason().wireName());
                        }
                    },
                    ValidationProgress.Listener.none());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
        return passed;
    }

    private Validator validator() {
        Validator v = validator;
        if (v != null) {
            return v;
        }
        synchronized (this) {
            if (validator == null) {
                try {
                    validator = factory.start();
                } catch (EchoUnavailableException e) {
                    LOG.log(
                            Level.WARNING,
                            "validator cannot start: echo endpoint unavailable ({0}); "
                                    + "publishing no newly validated proxies this round",
                            e.getMessage());
                    return null;
                }
            }
            return validator;
        }
    }
}
