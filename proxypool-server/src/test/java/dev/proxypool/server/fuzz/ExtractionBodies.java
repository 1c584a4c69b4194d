package dev.proxypool.server.fuzz;

import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.testkit.fuzz.Mutator;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/** Request bodies for {@code POST /v1/extractions}: mutated valid ones, random JSON, and valid ones with known values. */
final class ExtractionBodies {

    static final String[] SEEDS = {
        "{\"count\": 1}",
        "{\"count\": 5, \"fulfillment\": \"allOrNothing\"}",
        "{\"count\": 3, \"fulfillment\": \"partial\", \"minRemainingTtlSeconds\": 300, \"filter\": {\"protocol\": \"http\","
                + " \"country\": \"US\", \"region\": \"CA\", \"city\": \"San Jose\", \"carrier\": \"x\", \"upstream\": \"lab\","
                + " \"labels\": {\"type\": \"residential\", \"owner\": \"\\u00e9quipe\"}}}",
        "{\"filter\": null, \"count\": 2, \"fulfillment\": null, \"minRemainingTtlSeconds\": null}",
        " \n{\"count\":1e0,\"filter\":{\"labels\":{}}}\r\n\t",
        "{\"count\": 10, \"filter\": {\"protocol\": \"SOCKS5h\", \"labels\": {\"k\": \"v\\\"\\\\\\/\\b\\f\\n\\r\\t\"}}}",
    };

    static final Mutator MUTATOR = Mutator.of(
            80 * 1024,
            "{",
            "}",
            "[",
            "]",
            ":",
            ",",
            "\"",
            "\\",
            "\\u",
            "\\ud83d",
            "null",
            "true",
            "false",
            "\"count\"",
            "\"filter\"",
            "\"labels\"",
            "\"fulfillment\"",
            "\"minRemainingTtlSeconds\"",
            "\"protocol\"",
            "\"upstream\"",
            "\"country\"",
            "1e3",
            "-0",
            "2.5",
            "1E+30");

    private static final String[] KEYS = {
        "count", "fulfillment", "filter", "minRemainingTtlSeconds", "colour", "Count", "", "count\u0000", "\u00e9"
    };
    private static final String[] FILTER_KEYS = {
        "protocol", "country", "region", "city", "carrier", "upstream", "labels", "asn", ""
    };
    private static final String[] NUMBERS = {
        "0",
        "1",
        "2",
        "-1",
        "1000",
        "1001",
        "2147483647",
        "2147483648",
        "9223372036854775807",
        "9223372036854775808",
        "1e0",
        "1.0",
        "1.5",
        "1e3",
        "1E+30",
        "1e-7",
        "-0",
        "0.0",
        "1e999999999",
        "1e-999999999",
        "1e2147483648",
        "1" + "0".repeat(300),
        "316224000",
        "316224001",
        "3.16224e8"
    };

    private ExtractionBodies() {}

    /** A third mutated seeds, a third random JSON of the right shape, a third random JSON of any shape. */
    static byte[] next(SplittableRandom r) {
        return switch (r.nextInt(3)) {
            case 0 -> MUTATOR.mutate(SEEDS[r.nextInt(SEEDS.length)].getBytes(StandardCharsets.UTF_8), r);
            case 1 -> shaped(r).getBytes(StandardCharsets.UTF_8);
            default -> value(r, 0).getBytes(StandardCharsets.UTF_8);
        };
    }

    /** An object with (mostly) the schema's keys and values of any type. */
    private static String shaped(SplittableRandom r) {
        StringBuilder sb = new StringBuilder("{");
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
            String key = r.nextInt(6) == 0
                    ? RequestHeads.pick(r, KEYS)
                    : RequestHeads.pick(
                            r, new String[] {"count", "count", "fulfillment", "filter", "minRemainingTtlSeconds"});
            sb.append(i == 0 ? "" : ",").append(JsonCodec.quote(key)).append(':');
            switch (key) {
                case "count", "minRemainingTtlSeconds" ->
                    sb.append(r.nextInt(4) == 0 ? value(r, 1) : RequestHeads.pick(r, NUMBERS));
                case "fulfillment" ->
                    sb.append(
                            r.nextInt(4) == 0
                                    ? value(r, 1)
                                    : JsonCodec.quote(RequestHeads.pick(r, new String[] {
                                        "partial", "allOrNothing", "ALLORNOTHING", " partial ", "some", ""
                                    })));
                case "filter" -> sb.append(r.nextInt(6) == 0 ? value(r, 1) : filter(r));
                default -> sb.append(value(r, 1));
            }
        }
        return sb.append('}').toString();
    }

    private static String filter(SplittableRandom r) {
        StringBuilder sb = new StringBuilder("{");
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
            String key = RequestHeads.pick(r, FILTER_KEYS);
            sb.append(i == 0 ? "" : ",").append(JsonCodec.quote(key)).append(':');
            if (key.equals("labels")) {
                sb.append(r.nextInt(5) == 0 ? value(r, 2) : stringObject(r));
            } else if (key.equals("protocol") && r.nextBoolean()) {
                sb.append(JsonCodec.quote(
                        RequestHeads.pick(r, new String[] {"http", "https", "socks4", "socks5h", "ftp", ""})));
            } else {
                sb.append(r.nextInt(4) == 0 ? value(r, 2) : JsonCodec.quote(text(r)));
            }
        }
        return sb.append('}').toString();
    }

    private static String stringObject(SplittableRandom r) {
        StringBuilder sb = new StringBuilder("{");
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ",")
                    .append(JsonCodec.quote(text(r)))
                    .append(':')
                    .append(JsonCodec.quote(text(r)));
        }
        return sb.append('}').toString();
    }

    /** Any JSON value (sometimes a broken one), nesting at most a few levels from {@code depth}. */
    static String value(SplittableRandom r, int depth) {
        int kind = depth > 4 ? r.nextInt(5) : r.nextInt(8);
        return switch (kind) {
            case 0 -> "null";
            case 1 -> r.nextBoolean() ? "true" : "false";
            case 2 -> RequestHeads.pick(r, NUMBERS);
            case 3, 4 -> JsonCodec.quote(text(r));
            case 5 -> {
                StringBuilder sb = new StringBuilder("[");
                for (int i = r.nextInt(4); i > 0; i--) {
                    sb.append(value(r, depth + 1)).append(i > 1 ? "," : "");
                }
                yield sb.append(']').toString();
            }
            case 6 -> {
                StringBuilder sb = new StringBuilder("{");
                for (int i = r.nextInt(4); i > 0; i--) {
                    sb.append(JsonCodec.quote(text(r)))
                            .append(':')
                            .append(value(r, depth + 1))
                            .append(i > 1 ? "," : "");
                }
                yield sb.append('}').toString();
            }
            default ->
                RequestHeads.pick(r, new String[] {
                    "{",
                    "[",
                    "\"",
                    "{\"a\"",
                    "{\"a\":}",
                    "[1,]",
                    "nul",
                    "tru",
                    "\"\\x\"",
                    "\"\\u12\"",
                    "\"\\ud800\"",
                    "01",
                    "-",
                    "1.",
                    "{}}",
                    "{\"a\":1,}"
                });
        };
    }

    /** A short string: plain, blank, unicode, control characters, lone surrogates. */
    static String text(SplittableRandom r) {
        return switch (r.nextInt(8)) {
            case 0 -> "";
            case 1 -> " ";
            case 2 -> "US";
            case 3 -> "\u00e9\u4e2d\ud83d\ude00";
            case 4 -> "a\u0000b\n\t\"\\";
            case 5 -> "\ud800x";
            case 6 -> "k" + r.nextInt(1000);
            default -> "x".repeat(r.nextInt(200));
        };
    }

    /** A valid call with the values it must parse to. */
    record Valid(
            String body,
            int count,
            String fulfillment,
            long minTtl,
            String protocol,
            String upstream,
            Map<String, String> labels) {}

    /** A valid body of random values, spelled in random ways (order, spacing, escapes, defaults given or not). */
    static Valid valid(SplittableRandom r, int maxCount) {
        int count = 1 + r.nextInt(maxCount);
        String fulfillment = r.nextBoolean() ? "partial" : "allOrNothing";
        long minTtl = r.nextInt(4) == 0 ? r.nextLong(316_224_001L) : r.nextInt(3_600);
        String protocol = RequestHeads.pick(r, new String[] {null, "http", "https", "socks4", "socks5"});
        String upstream = r.nextBoolean() ? null : "up-" + r.nextInt(100);
        Map<String, String> labels = new TreeMap<>();
        StringBuilder filter = new StringBuilder("{");
        String sep = "";
        if (protocol != null) {
            filter.append("\"protocol\":").append(JsonCodec.quote(protocol));
            sep = ",";
        }
        if (upstream != null) {
            filter.append(sep).append("\"upstream\":").append(JsonCodec.quote(upstream));
            sep = ",";
        }
        for (String named : new String[] {"country", "region", "city", "carrier"}) {
            if (r.nextInt(3) == 0) {
                String v = labelValue(r);
                labels.put(named, v);
                filter.append(sep).append(JsonCodec.quote(named)).append(':').append(JsonCodec.quote(v));
                sep = ",";
            }
        }
        if (r.nextBoolean()) {
            filter.append(sep).append("\"labels\":{");
            String lsep = "";
            for (int i = r.nextInt(4); i > 0; i--) {
                String k = "l" + r.nextInt(1_000);
                if (labels.containsKey(k)) {
                    continue;
                }
                String v = labelValue(r);
                labels.put(k, v);
                filter.append(lsep).append(JsonCodec.quote(k)).append(':').append(JsonCodec.quote(v));
                lsep = ",";
            }
            filter.append('}');
        }
        filter.append('}');
        String[] fields = {
            "\"count\":" + (r.nextInt(8) == 0 ? count + ".0" : Integer.toString(count)),
            r.nextBoolean() || fulfillment.equals("allOrNothing")
                    ? "\"fulfillment\":" + JsonCodec.quote(fulfillment)
                    : null,
            minTtl != 0 || r.nextBoolean() ? "\"minRemainingTtlSeconds\":" + minTtl : null,
            filter.length() > 2 || r.nextBoolean() ? "\"filter\":" + filter : null
        };
        StringBuilder body = new StringBuilder(r.nextBoolean() ? " {" : "{");
        String fsep = "";
        int start = r.nextInt(fields.length);
        for (int i = 0; i < fields.length; i++) {
            String f = fields[(start + i) % fields.length];
            if (f != null) {
                body.append(fsep).append(f);
                fsep = r.nextBoolean() ? ", " : ",";
            }
        }
        body.append(r.nextBoolean() ? "}\n" : "}");
        return new Valid(body.toString(), count, fulfillment, minTtl, protocol, upstream, labels);
    }

    private static String labelValue(SplittableRandom r) {
        return switch (r.nextInt(4)) {
            case 0 -> "US";
            case 1 -> "S\u00e3o Paulo";
            case 2 -> "v\"q\\" + r.nextInt(100);
            default -> "\u4e2d" + r.nextInt(10);
        };
    }
}
