package dev.proxypool.cli;

import dev.proxypool.core.model.AddressMask;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.asn.AsnDatabase;
import dev.proxypool.sdk.asn.AsnDatabaseLoader;
import dev.proxypool.sdk.asn.AsnLoadResult;
import dev.proxypool.sdk.credentials.CredentialStore;
import dev.proxypool.sdk.credentials.FileCredentialStore;
import dev.proxypool.sdk.credentials.InlineCredentials;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import dev.proxypool.sdk.dial.UpstreamDialer;
import dev.proxypool.sdk.provider.DropSample;
import dev.proxypool.sdk.provider.FetchReport;
import dev.proxypool.sdk.validate.EchoServer;
import dev.proxypool.sdk.validate.EchoUnavailableException;
import dev.proxypool.sdk.validate.RejectReason;
import dev.proxypool.sdk.validate.ValidationProgress;
import dev.proxypool.sdk.validate.ValidationResult;
import dev.proxypool.sdk.validate.ValidationSummary;
import dev.proxypool.sdk.validate.Validator;
import dev.proxypool.sdk.validate.ValidatorSettings;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        description = {
            "Validate a candidate file: elite, anonymous, or rejected with a reason.",
            "FILE is a JSONL inventory or a plain-text list (host:port or",
            "scheme://[user:pass@]host:port, # comments), parsed like a provider;",
            "inline user:pass is used for that proxy and never printed.",
            "Without --echo-url a local echo endpoint is started on 127.0.0.1, which",
            "only proxies on this machine can reach. For proxies elsewhere, run",
            "'proxypool echo --bind 0.0.0.0' on a host they can reach (or use a",
            "server's /v1/echo) and pass its URL.",
            "Progress goes to stderr every 500 ms; the table (or --json) to stdout."
        },
        footer = {
            "",
            "Examples:",
            "  proxypool validate inventory/upstreams.jsonl",
            "  proxypool validate proxies.txt --protocol socks5 --concurrency 200",
            "  proxypool validate vendor.jsonl --json \\",
            "      --credentials secrets/credentials.properties > verdicts.json",
            "  proxypool validate list.txt --asn-db data/asn-ipv4.csv \\",
            "      --echo-url http://203.0.113.10:9091/v1/echo"
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every candidate was judged (even if all were rejected)",
            "1:error (unreadable file, echo endpoint unusable, bad ASN database)",
            "2:usage (bad options)"
        })
final class ValidateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "Candidates: JSONL inventory or plain-text list.")
    Path file;

    @Option(
            names = "--echo-url",
            paramLabel = "URL",
            description = "Echo endpoint the proxies can reach (default: start one on 127.0.0.1).")
    String echoUrl;

    @Option(names = "--json", description = "Print one JSON array of verdicts for scripts.")
    boolean json;

    @Option(
            names = "--concurrency",
            paramLabel = "N",
            defaultValue = "100",
            description = "Candidates validated at once (default ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            converter = DurationConverter.class,
            defaultValue = "8s",
            description = "Deadline of one candidate (default ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(
            names = "--credentials",
            paramLabel = "FILE",
            description = "Credentials file (<ref>.username=..., <ref>.password=...) for records with a credentialRef.")
    Path credentials;

    @Option(
            names = "--protocol",
            paramLabel = "P",
            defaultValue = "http",
            description = "Protocol of host:port lines in a text list (default ${DEFAULT-VALUE}).")
    String protocol;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "auto",
            description = "auto (by extension, then content), jsonl or text (default ${DEFAULT-VALUE}).")
    String format;

    @Option(
            names = "--asn-db",
            paramLabel = "FILE",
            description = "ASN CSV (with its .sha256 sidecar) to look up each exit address; default: no lookup.")
    Path asnDb;

    @Override
    public Integer call() throws InterruptedException {
        Protocol defaultProtocol;
        InventoryFile.Format fmt = null;
        ValidatorSettings settings;
        try {
            defaultProtocol = Protocol.parse(protocol);
            if (!format.equalsIgnoreCase("auto")) {
                fmt = InventoryFile.Format.parse(format);
            }
            settings = ValidatorSettings.builder()
                    .echoUrl(echoUrl == null ? ValidatorSettings.DEFAULT_ECHO_URL : URI.create(echoUrl))
                    .concurrency(concurrency)
                    .queueCapacity(Math.min(1_000_000, 2 * concurrency))
                    .timeout(timeout)
                    .build();
        } catch (IllegalArgumentException e) {
            return CliErrors.fail(
                    spec,
                    Main.EXIT_USAGE,
                    e.getMessage()
                            .replace("pipeline.validationConcurrency", "--concurrency")
                            .replace("pipeline.validationTimeout", "--timeout")
                            .replace("pipeline.echoUrl", "--echo-url"),
                    e);
        }
        FetchReport report;
        AsnDatabase asn;
        CredentialStore store;
        try {
            InlineCredentials inline = new InlineCredentials();
            report = InventoryFile.read(file, fmt != null ? fmt : InventoryFile.detect(file), defaultProtocol, inline);
            asn = asnDatabase();
            store = inline.over(credentialStore());
        } catch (InventoryFile.Unreadable e) {
            return CliErrors.fail(spec, Main.EXIT_ERROR, e.getMessage(), e);
        }
        reportDrops(report);
        EchoServer ownEcho = echoUrl == null ? EchoServer.start() : null;
        try {
            if (ownEcho != null) {
                settings = settings.toBuilder().echoUrl(ownEcho.url()).build();
            }
            Validator validator;
            try {
                validator = Validator.builder(UpstreamDialer.create(store))
                        .settings(settings)
                        .start();
            } catch (EchoUnavailableException e) {
                return CliErrors.fail(spec, Main.EXIT_ERROR, "echo endpoint unusable: " + e.getMessage(), e);
            }
            return run(validator, report.candidates(), asn);
        } finally {
            if (ownEcho != null) {
                ownEcho.close();
            }
        }
    }

    private int run(Validator validator, List<Proxy> candidates, AsnDatabase asn) throws InterruptedException {
        Map<String, Integer> order = new HashMap<>(candidates.size() * 2);
        for (int i = 0; i < candidates.size(); i++) {
            order.put(candidates.get(i).id(), i);
        }
        ValidationResult[] results = new ValidationResult[candidates.size()];
        AtomicReference<ValidationProgress> latest = new AtomicReference<>();
        PrintWriter err = spec.commandLine().getErr();
        ValidationSummary summary;
        try (ProgressTicker ignored = new ProgressTicker(
                err,
                Duration.ofMillis(500),
                () -> latest.get() == null ? null : latest.get().line())) {
            summary = validator.validateAll(
                    candidates.iterator(),
                    candidates.size(),
                    r -> results[order.get(r.proxy().id())] = r,
                    latest::set);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(ValidationOutput.json(results, asn));
            err.println(summaryLine(summary));
        } else {
            ValidationOutput.table(results, asn).print(out);
            out.println(summaryLine(summary));
        }
        long sameAddress = summary.rejectedByReason().getOrDefault(RejectReason.DIRECT_ADDRESS_SEEN, 0L);
        if (sameAddress > 0) {
            err.println(directAddressHint(sameAddress));
        }
        out.flush();
        err.flush();
        return Main.EXIT_OK;
    }

    /**
     * What to do about {@code direct_address_seen}: the echo saw this machine's own address, which a
     * transparent proxy causes, and so does a proxy on this host or network (a lab or self-hosted
     * one), whose exit is this machine's address.
     */
    static String directAddressHint(long n) {
        return "hint: " + n + (n == 1 ? " proxy was" : " proxies were")
                + " rejected direct_address_seen: the echo endpoint saw this machine's own address. A"
                + " transparent proxy does that, and so does a proxy on this host or network (a lab or"
                + " self-hosted proxy exits with this machine's address). For proxies you run yourself,"
                + " set 'validate: false' on their upstream (docs/runbook.md, 4.4).";
    }

    private static String summaryLine(ValidationSummary s) {
        StringBuilder sb = new StringBuilder(String.format(
                Locale.ROOT,
                "validated %d in %.1f s: elite %d, anonymous %d, rejected %d",
                s.total(),
                s.elapsed().toMillis() / 1000.0,
                s.elite(),
                s.anonymous(),
                s.rejected()));
        if (!s.rejectedByReason().isEmpty()) {
            StringBuilder reasons = new StringBuilder();
            new TreeMap<>(s.rejectedByReason())
                    .forEach((r, n) -> reasons.append(reasons.isEmpty() ? "" : ", ")
                            .append(r.wireName())
                            .append(' ')
                            .append(n));
            sb.append(" (").append(reasons).append(')');
        }
        return sb.toString();
    }

    private void reportDrops(FetchReport report) {
        if (report.dropped() == 0) {
            return;
        }
        List<String> where = new ArrayList<>();
        for (DropSample d : report.dropSamples()) {
            if (where.size() == 10) {
                where.add("...");
                break;
            }
            where.add(d.position() + " " + d.reason());
        }
        PrintWriter err = spec.commandLine().getErr();
        err.println(spec.qualifiedName() + ": skipped " + report.dropped() + " record(s) " + report.drops()
                + (where.isEmpty() ? "" : ": line " + String.join(", ", where)));
        err.flush();
    }

    private AsnDatabase asnDatabase() throws InventoryFile.Unreadable {
        if (asnDb == null) {
            return null;
        }
        // A diagnostic run: any age is acceptable, the checksum sidecar is still required.
        AsnLoadResult r = new AsnDatabaseLoader(Duration.ofDays(365L * 100), Clocks.wall()).load(asnDb);
        return switch (r) {
            case AsnLoadResult.Loaded l -> l.database();
            case AsnLoadResult.Failed f ->
                throw new InventoryFile.Unreadable(
                        "cannot use --asn-db " + asnDb + ": " + f.error().detail(), null);
        };
    }

    private CredentialStore credentialStore() throws InventoryFile.Unreadable {
        if (credentials == null) {
            return StaticCredentialStore.empty();
        }
        if (!Files.isRegularFile(credentials) || !Files.isReadable(credentials)) {
            throw new InventoryFile.Unreadable(
                    "cannot read --credentials " + credentials + ": "
                            + (Files.exists(credentials) ? "not a readable file" : "no such file"),
                    null);
        }
        FileCredentialStore s = FileCredentialStore.open(credentials);
        if (s.lastError().isPresent()) {
            throw new InventoryFile.Unreadable(
                    "cannot use --credentials " + credentials + ": "
                            + s.lastError().get(),
                    null);
        }
        return s;
    }

    /** The address for a table: masked host and port. */
    static String masked(Proxy p) {
        String h = AddressMask.mask(p.host());
        return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + p.port();
    }
}
