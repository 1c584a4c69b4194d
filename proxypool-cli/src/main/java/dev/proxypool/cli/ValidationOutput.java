package dev.proxypool.cli;

import dev.proxypool.core.model.AddressMask;
import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.sdk.asn.AsnDatabase;
import dev.proxypool.sdk.validate.ValidationResult;

/** The verdicts of {@code proxypool validate}: a table for people (masked), a JSON array for scripts. */
final class ValidationOutput {

    private ValidationOutput() {
    }

    static Table table(ValidationResult[] results, AsnDatabase asn) {
        Table t = new Table("PROTOCOL", "ADDRESS", "VERDICT", "LATENCY_MS", "EXIT_IP", "EXIT_ASN", "REASON");
        for (ValidationResult r : results) {
            if (r == null) {
                continue;
            }
            String exitIp = exitIp(r);
            long exitAsn = asn(asn, exitIp);
            t.row(r.proxy().protocol().wireName(), ValidateCommand.masked(r.proxy()), r.verdict().wireName(),
                    Long.toString(r.latencyMillis()), exitIp == null ? "-" : AddressMask.mask(exitIp),
                    exitAsn == 0 ? "-" : "AS" + exitAsn, reason(r));
        }
        return t;
    }

    static String json(ValidationResult[] results, AsnDatabase asn) {
        return JsonText.write(g -> {
            g.writeArrayStart();
            for (ValidationResult r : results) {
                if (r == null) {
                    continue;
                }
                String exitIp = exitIp(r);
                g.writeObjectStart();
                g.write("id", r.proxy().id());
                g.write("host", r.proxy().host());
                g.write("port", r.proxy().port());
                g.write("protocol", r.proxy().protocol().wireName());
                g.write("verdict", r.verdict().wireName());
                switch (r) {
                    case ValidationResult.Accepted a -> {
                        g.writeKey("reason").writeNull();
                        g.write("detail", a.marker());
                    }
                    case ValidationResult.Rejected x -> {
                        g.write("reason", x.reason().wireName());
                        g.write("detail", x.detail());
                    }
                }
                g.write("latencyMs", r.latencyMillis());
                JsonText.stringOrNull(g, "exitIp", exitIp);
                g.write("exitAsn", asn(asn, exitIp));
                g.writeObjectEnd();
            }
            g.writeArrayEnd();
        });
    }

    private static String exitIp(ValidationResult r) {
        return switch (r) {
            case ValidationResult.Accepted a -> a.exitIp();
            case ValidationResult.Rejected x -> x.exitIp().orElse(null);
        };
    }

    private static String reason(ValidationResult r) {
        return switch (r) {
            case ValidationResult.Accepted a -> a.marker().isEmpty() ? "-" : a.marker();
            case ValidationResult.Rejected x -> x.reason().wireName();
        };
    }

    private static long asn(AsnDatabase db, String ip) {
        if (db == null || ip == null) {
            return 0;
        }
        try {
            ExitNetwork n = db.lookup(ip);
            return n.asn();
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }
}
