package dev.proxypool.cli;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.remote.DistributionClient;
import dev.proxypool.sdk.remote.DistributionException;
import dev.proxypool.sdk.remote.LeaseOutcome;
import dev.proxypool.sdk.remote.ReleaseReceipt;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "release",
        mixinStandardHelpOptions = true,
        description = {
            "Release a lease of 'proxypool acquire' with its outcome (POST /v1/proxy/release).",
            "The outcome feeds the proxy's health as the gateway's own outcomes do: ok, abandoned",
            "(nothing reported), or a failure kind: connection_refused, connect_timeout,",
            "proxy_auth_rejected, tls_failure, protocol_error, slow_body, connection_reset,",
            "upstream_unreachable. Releasing twice is safe."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool release l-3kT... --outcome ok --latency 180ms",
            "  proxypool release l-3kT... --outcome connect_timeout",
            "  proxypool release l-3kT... --outcome ok --banned-domain shop.example"
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:released (or released before)",
            "1:error (unknown or expired lease, server unreachable, unauthorized, ...)",
            "2:usage (bad options, or the server refused the request as invalid)"
        })
final class ReleaseCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    RemoteApiOptions remote;

    @Parameters(index = "0", paramLabel = "LEASE_ID", description = "The leaseId that acquire printed.")
    String leaseId;

    @Option(
            names = "--outcome",
            paramLabel = "O",
            defaultValue = "ok",
            description = "ok (default), abandoned or a failure kind (see above).")
    String outcome;

    @Option(
            names = "--latency",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            description = "How long the use took, e.g. 180ms (feeds the proxy's weight).")
    Duration latency;

    @Option(names = "--banned-domain", paramLabel = "D", description = "The destination refused this proxy.")
    String bannedDomain;

    @Option(names = "--json", description = "Print one JSON object for scripts.")
    boolean json;

    @Override
    public Integer call() {
        LeaseOutcome o;
        DistributionClient client;
        try {
            o = outcome();
            client = remote.client();
        } catch (IllegalArgumentException e) {
            return CliErrors.fail(spec, Main.EXIT_USAGE, e.getMessage(), e);
        }
        try (client) {
            ReleaseReceipt r = client.release(o);
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("leaseId", r.leaseId());
                m.put("outcome", r.outcome());
                m.put("alreadyReleased", r.alreadyReleased());
                m.put("heldMs", r.heldMs().isPresent() ? r.heldMs().getAsLong() : null);
                out.println(JsonCodec.write(m));
            } else if (r.alreadyReleased()) {
                out.println("lease " + r.leaseId() + " was already released (outcome " + r.outcome() + ")");
            } else {
                out.println("released " + r.leaseId() + " (" + r.outcome() + ", held "
                        + r.heldMs().orElse(0) + " ms)");
            }
            out.flush();
            return Main.EXIT_OK;
        } catch (DistributionException e) {
            if (json) {
                AcquireCommand.printError(spec, e);
            }
            return CliErrors.fail(spec, AcquireCommand.exitCode(e), e.getMessage(), e);
        }
    }

    private LeaseOutcome outcome() {
        LeaseOutcome o = switch (outcome.strip()) {
            case "ok" -> LeaseOutcome.ok(leaseId);
            case "abandoned" -> LeaseOutcome.abandoned(leaseId);
            default -> LeaseOutcome.failed(leaseId, failureKind(outcome.strip()));
        };
        if (latency != null) {
            o = o.latency(latency);
        }
        if (bannedDomain != null) {
            o = o.bannedDomain(bannedDomain);
        }
        return o;
    }

    private static FailureKind failureKind(String wire) {
        for (FailureKind k : FailureKind.values()) {
            if (k.wireName().equals(wire)) {
                return k;
            }
        }
        throw new IllegalArgumentException("--outcome '" + wire
                + "' is unknown: expected ok, abandoned, connection_refused, connect_timeout, proxy_auth_rejected,"
                + " tls_failure, protocol_error, slow_body, connection_reset or upstream_unreachable");
    }
}
