package dev.proxypool.sdk.fuzz;

import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.testkit.fuzz.Mutator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Provider answers in the four built-in formats: mutated valid answers, answers assembled from
 * random records (valid, broken and hostile fields), and valid answers with known contents.
 */
enum Feeds {
    JSONL("jsonl_inventory", Map.of(), new String[] {
        "{\"host\": \"198.51.100.7\", \"port\": 8080, \"protocol\": \"http\", \"labels\": {\"country\": \"US\"}}\n"
                + "# a comment\n\n{\"host\": \"proxy-2.example\", \"port\": \"3128\", \"protocol\": \"https\", \"ttlSeconds\": 600,"
                + " \"maxConcurrency\": 5, \"weight\": 2}\r\n{\"host\": \"[2001:db8::7]\", \"port\": 1080, \"protocol\": \"socks5\","
                + " \"credentialRef\": \"vendor\", \"expiresAt\": \"2030-01-01T00:00:00Z\"}\n",
        "\ufeff{\"host\":\"203.0.113.9\",\"port\":1,\"protocol\":\"socks4\",\"labels\":{\"asn\":\"64500\",\"city\":\"S\u00e3o Paulo\"}}",
    }),
    JSON("http_json_feed", Map.of("host", "ip", "expiresAt", "expire_time", "labels.country", "cc"), new String[] {
        "{\"data\": {\"proxies\": [{\"ip\": \"198.51.100.7\", \"port\": 8080, \"protocol\": \"http\", \"cc\": \"US\","
                + " \"expire_time\": 1893456000}, {\"ip\": \"proxy-2.example\", \"port\": 3128, \"protocol\": \"https\","
                + " \"labels\": {\"type\": \"residential\"}}]}}",
        "[{\"ip\": \"203.0.113.9\", \"port\": \"1080\", \"protocol\": \"socks5\", \"expire_time\": \"2030-01-01T00:00:00Z\"},"
                + " {\"ip\": \"::1\", \"port\": 65535.0, \"protocol\": \"SOCKS4\", \"weight\": 3}, 5, null]",
    }),
    CSV("csv", Map.of("host", "ip", "labels.country", "country"), new String[] {
        "ip,port,protocol,country\n198.51.100.7,8080,http,US\n\"proxy-2.example\",3128,https,\"D, E\"\r\n"
                + "  \"203.0.113.9\" ,1080,socks5,\"say \"\"hi\"\"\"\n",
        "\ufeffip,port,protocol,country,ttlSeconds\n[2001:db8::1],1,socks4,BR,60\n\n198.51.100.8,2,http,,\n",
    }),
    TEXT("text_list", Map.of(), new String[] {
        "198.51.100.7:8080\n# comment\nproxy-2.example:3128 # trailing comment\n[2001:db8::7]:1080\r\n"
                + "socks5://203.0.113.9:1080/\nhttp://user:pass@198.51.100.8:80\n\n",
        "\ufeff10.0.0.1:1\nhttps://h.example:443\nsocks4://[::1]:9\n",
    });

    final String type;
    final Map<String, String> fields;
    final String[] seeds;

    Feeds(String type, Map<String, String> fields, String[] seeds) {
        this.type = type;
        this.fields = fields;
        this.seeds = seeds;
    }

    /** The adapter settings of the fuzz runs ({@code path}/{@code url} are never opened by the in-memory fetch). */
    Map<String, String> settings(String pathOrUrl) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put(pathOrUrl.startsWith("http") ? "url" : "path", pathOrUrl);
        s.put("maxBytes", Long.toString(MAX_BYTES));
        switch (this) {
            case JSON -> s.put("listField", "data.proxies");
            case TEXT -> s.put("protocol", "http");
            default -> {}
        }
        return s;
    }

    static final long MAX_BYTES = 64 * 1024;

    static final Mutator MUTATOR = Mutator.of(
            96 * 1024,
            "{",
            "}",
            "[",
            "]",
            "\"",
            ",",
            ":",
            "\n",
            "\r\n",
            "#",
            "//",
            "[::1]",
            "@",
            "\"host\"",
            "\"ip\"",
            "\"port\"",
            "\"protocol\"",
            "\"labels\"",
            "\"expiresAt\"",
            "\"expire_time\"",
            "\"ttlSeconds\"",
            "\"credentialRef\"",
            "\"weight\"",
            "\"maxConcurrency\"",
            "\"data\"",
            "\"proxies\"",
            "socks5://",
            "http://",
            "user:pass@",
            "\"\"",
            "1e999999999",
            "65536",
            "0",
            "-1",
            "null",
            "true",
            "\u00e9",
            "\ufeff");

    private static final String[] HOSTS = {
        "198.51.100.7",
        "proxy.example",
        "[2001:db8::1]",
        "2001:db8::1",
        "::1",
        "256.1.1.1",
        "1.2.3",
        "01.2.3.4",
        "",
        " ",
        "h st",
        "h\u00e9.example",
        "-bad.example",
        "a..b",
        "x".repeat(300),
        "[::1",
        "[]",
        "localhost",
        "1e3",
        "\u0000",
        "host.example.",
        "*.example",
        "h_1.example"
    };
    private static final String[] PORTS = {
        "8080",
        "1",
        "65535",
        "0",
        "65536",
        "-1",
        "80.0",
        "80.5",
        "1e3",
        "1e999999999",
        "99999999999999999999999999999999999",
        "0x50",
        "",
        " 80 ",
        "NaN",
        "\u0661\u0662"
    };
    private static final String[] PROTOCOLS = {"http", "https", "socks4", "socks5", "SOCKS5H", "ftp", "", "http "};
    private static final String[] EXTRA = {
        "ttlSeconds",
        "expiresAt",
        "expire_time",
        "credentialRef",
        "weight",
        "maxConcurrency",
        "asn",
        "cc",
        "labels",
        "country",
        "username",
        "password"
    };
    private static final String[] EXTRA_VALUES = {
        "60",
        "0",
        "-5",
        "315360001",
        "1e999999999",
        "2030-01-01T00:00:00Z",
        "2030-01-01T00:00:00",
        "1893456000",
        "1893456000000",
        "99999999999999999999",
        "vendor",
        "bad ref!",
        "",
        "US",
        "\u0007",
        "x".repeat(300),
        "-0",
        "1.5",
        "1E+31"
    };

    /** Half mutated seeds, half random records in this format. */
    byte[] next(SplittableRandom r) {
        if (r.nextBoolean()) {
            return MUTATOR.mutate(seeds[r.nextInt(seeds.length)].getBytes(StandardCharsets.UTF_8), r);
        }
        int n = r.nextInt(16) == 0 ? r.nextInt(60) : r.nextInt(6);
        List<Map<String, String>> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            records.add(randomRecord(r));
        }
        return render(records, r, false).getBytes(StandardCharsets.UTF_8);
    }

    private Map<String, String> randomRecord(SplittableRandom r) {
        Map<String, String> rec = new LinkedHashMap<>();
        if (r.nextInt(10) != 0) {
            rec.put("host", pick(r, HOSTS));
        }
        if (r.nextInt(10) != 0) {
            rec.put("port", pick(r, PORTS));
        }
        if (r.nextInt(3) != 0) {
            rec.put("protocol", pick(r, PROTOCOLS));
        }
        for (int i = r.nextInt(3); i > 0; i--) {
            rec.put(pick(r, EXTRA), pick(r, EXTRA_VALUES));
        }
        return rec;
    }

    /**
     * This format's text for {@code records} (normalized names: host, port, protocol, country, ...).
     * With {@code strict}, values are written the one way the format reads back exactly.
     */
    String render(List<Map<String, String>> records, SplittableRandom r, boolean strict) {
        StringBuilder sb = new StringBuilder();
        switch (this) {
            case JSONL -> {
                for (Map<String, String> rec : records) {
                    sb.append(jsonObject(rec, r, strict, "host")).append(r.nextInt(4) == 0 ? "\r\n" : "\n");
                    if (!strict && r.nextInt(10) == 0) {
                        sb.append(
                                pick(r, new String[] {"# comment\n", "\n", "[1,2]\n", "{\n", "\"str\"\n", "{} {}\n"}));
                    }
                }
            }
            case JSON -> {
                boolean wrapped = r.nextBoolean();
                sb.append(wrapped ? "{\"meta\": {\"n\": " + records.size() + "}, \"data\": {\"proxies\": [" : "[");
                for (int i = 0; i < records.size(); i++) {
                    sb.append(i == 0 ? "" : ", ").append(jsonObject(records.get(i), r, strict, "ip"));
                }
                if (!strict && r.nextInt(10) == 0) {
                    sb.append(records.isEmpty() ? "" : ",").append(pick(r, new String[] {"5", "null", "[]", "\"x\""}));
                }
                sb.append(wrapped ? "]}}" : "]");
            }
            case CSV -> {
                List<String> columns = new ArrayList<>(List.of("ip", "port", "protocol", "country"));
                for (Map<String, String> rec : records) {
                    for (String k : rec.keySet()) {
                        String col = k.equals("host") ? "ip" : k;
                        if (!columns.contains(col) && !col.equals("labels")) {
                            columns.add(col);
                        }
                    }
                }
                sb.append(String.join(",", columns)).append('\n');
                for (Map<String, String> rec : records) {
                    List<String> cells = new ArrayList<>();
                    for (String col : columns) {
                        String v = rec.getOrDefault(col.equals("ip") ? "host" : col, "");
                        cells.add(strict || r.nextBoolean() ? csvCell(v) : v);
                    }
                    sb.append(String.join(",", cells)).append(r.nextInt(4) == 0 ? "\r\n" : "\n");
                }
            }
            case TEXT -> {
                for (Map<String, String> rec : records) {
                    String protocol = rec.get("protocol");
                    String host = rec.getOrDefault("host", "");
                    if (protocol != null && (strict || r.nextBoolean())) {
                        sb.append(protocol).append("://");
                    }
                    if (!strict && r.nextInt(8) == 0) {
                        sb.append("user:p@ss@");
                    }
                    sb.append(
                            host.indexOf(':') >= 0 && !host.startsWith("[") && (strict || r.nextBoolean())
                                    ? "[" + host + "]"
                                    : host);
                    sb.append(':').append(rec.getOrDefault("port", ""));
                    if (!strict && r.nextInt(6) == 0) {
                        sb.append(pick(r, new String[] {" # c", "/", "  ", "#", " x"}));
                    }
                    sb.append(r.nextInt(4) == 0 ? "\r\n" : "\n");
                }
            }
        }
        return sb.toString();
    }

    private static String jsonObject(Map<String, String> rec, SplittableRandom r, boolean strict, String hostKey) {
        StringBuilder sb = new StringBuilder("{");
        String sep = "";
        for (Map.Entry<String, String> e : rec.entrySet()) {
            String key = e.getKey().equals("host") ? hostKey : e.getKey();
            if (key.equals("country")) {
                key = hostKey.equals("ip") ? "cc" : "labels";
            }
            String v = e.getValue();
            sb.append(sep).append(JsonCodec.quote(key)).append(": ");
            if (key.equals("labels")) {
                sb.append("{\"country\": ").append(JsonCodec.quote(v)).append('}');
            } else if (!strict && r.nextInt(8) == 0) {
                sb.append(pick(r, new String[] {"null", "true", "[1]", "{}", "{\"a\": [", "1e999999999", "-0"}));
            } else if (isJsonNumber(v) && (strict ? key.equals("port") : r.nextBoolean())) {
                sb.append(v);
            } else {
                sb.append(JsonCodec.quote(v));
            }
            sep = ", ";
        }
        return sb.append('}').toString();
    }

    private static boolean isJsonNumber(String v) {
        return v.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    }

    private static String csvCell(String v) {
        return "\"" + v.replace("\"", "\"\"") + "\"";
    }

    static <T> T pick(SplittableRandom r, T[] from) {
        return from[r.nextInt(from.length)];
    }
}
