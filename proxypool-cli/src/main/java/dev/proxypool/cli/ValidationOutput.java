package dev.proxypool.cli;

import dev.proxypool.core.model.AddressMask;
import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.sdk.asn.AsnDatabase;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.validate.ValidationResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The verdicts of {@code proxypool validate}: a table for people (masked), a JSON array for scripts. */
final class ValidationOutput {

    private ValidationOutput() {}

    static Table table(ValidationResult[] results, AsnDatabase asn) {
        Table t = new Table("PROTOCOL", "ADDRESS", "VERDICT", "LATENCY_MS", "EXIT_IP", "EXIT_ASN", "REASON");
        for (ValidationResult r : results) {
            if (r == null) {
                continue;
            }
            String exitIp = exitIp(r);
            long exitAsn = asn(asn, exitIp);
            t.row(
                    r.proxy().protocol().wireName(),
                    ValidateCommand.masked(r.proxy()),
                    r.verdict().wireName(),
                    Long.toString(r.latencyMillis()),
                    exitIp == null ? "-" : AddressMask.mask(exitIp),
                    exitAsn == 0 ? "-" : "AS" + exitAsn,
                    reason(r));
        }
        return t;
    }

    static String json(ValidationResult[] results, AsnDatabase asn) {
        return JsonCodec.write(rows(results, asn));
    }

    /** The verdicts as JSON-ready maps, in the order given. */
    static List<Map<String, Object>> rows(ValidationResult[] results, AsnDatabase asn) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (ValidationResult r : results) {
            if (r == null) {
                continue;
            }
            String exitIp = exitIp(r);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", r.proxy().id());
            m.put("host", r.proxy().host());
            m.put("port", r.proxy().port());
            m.put("protocol", r.proxy().protocol().wireName());
            m.put("verdict", r.verdict().wireName());
            switch (r) {
                case ValidationResult.Accepted a -> {
                    m.put("reason", null);
                    m.put("detail", a.marker());
                }
                case ValidationResult.Rejected x -> {
                    m.put("reason", x.reason().wireName());
                    m.put("detail", x.detail());
                }
            }
            m.put("latencyMs", r.latencyMillis());
            m.put("exitIp", exitIp);
            m.put("exitAsn", asn(asn, exitIp));
            out.add(m);
        }
        return out;
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
