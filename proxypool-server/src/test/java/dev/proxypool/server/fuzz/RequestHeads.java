package dev.proxypool.server.fuzz;

import dev.proxypool.testkit.fuzz.Mutator;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/** Inputs for the gateway's request-head parser: mutated valid heads and heads built from random parts. */
final class RequestHeads {

    static final String[] SEEDS = {
        "GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n",
        "GET http://example.com:8080/a/b?c=d&e=%20f#frag HTTP/1.1\r\nHost: example.com:8080\r\nUser-Agent: fuzz\r\n"
                + "Accept: */*\r\nConnection: keep-alive\r\n\r\n",
        "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nProxy-Authorization: Basic YWxpY2U6czNjcmV0\r\n\r\n",
        "CONNECT [2001:db8::1]:443 HTTP/1.0\r\n\r\n",
        "POST http://h.example/submit HTTP/1.1\r\nHost: h.example\r\nContent-Length: 5\r\n\r\nhello",
        "PUT http://h.example/x HTTP/1.1\r\nHost: h.example\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "HEAD http://[::1]:81/ HTTP/1.0\r\nConnection: close\r\n\r\n",
        "GET http://h/ HTTP/1.1\nHost: h\nX-ProxyPool-Session: s1\n\n",
        "\r\n\r\nOPTIONS http://h/ HTTP/1.1\r\nHost: h\r\nContent-Length: 0, 0\r\nExpect: 100-continue\r\n\r\n",
        "DELETE HTTP://H.EXAMPLE:65535/?q HTTP/1.1\r\nHost: h.example\r\nX-Empty:\r\nX-Tab: \ta\t\r\n\r\n",
    };

    static final Mutator MUTATOR = Mutator.of(
            96 * 1024,
            "GET ",
            "CONNECT ",
            "POST ",
            "PRI ",
            " HTTP/1.1",
            " HTTP/1.0",
            "HTTP/2.0",
            "http://",
            "https://",
            "HTTP://",
            "ftp://",
            "[::1]",
            "[",
            "]",
            ":443",
            ":0",
            ":65536",
            "@",
            "Host: ",
            "Content-Length: ",
            "Transfer-Encoding: ",
            "chunked",
            "Connection: close",
            "Proxy-Authorization: ",
            "Expect: 100-continue",
            "\r\n\r\n",
            "\r\n ",
            ": ",
            "*",
            "/",
            "?",
            "#",
            "..",
            "%2F");

    private static final String[] METHODS = {
        "GET",
        "HEAD",
        "POST",
        "PUT",
        "DELETE",
        "OPTIONS",
        "PATCH",
        "TRACE",
        "CONNECT",
        "PROPFIND",
        "MKCOL",
        "get",
        "BREW",
        "PRI",
        "G\u00e9T",
        "",
        "GET\u0000",
        "X-Y",
        "{}"
    };
    private static final String[] VERSIONS = {
        "HTTP/1.1",
        "HTTP/1.0",
        "HTTP/1.1",
        "HTTP/1.1",
        "HTTP/2.0",
        "HTTP/0.9",
        "http/1.1",
        "HTTP/1.1 ",
        "HTTP/1.10",
        "",
        "HTTP/1.1\u0000"
    };
    private static final String[] HOSTS = {
        "example.com",
        "h",
        "a-b.c_d.example",
        "127.0.0.1",
        "[::1]",
        "[2001:db8::1]",
        "[::ffff:10.0.0.1]",
        "[zz::1]",
        "[]",
        "[::1",
        "::1",
        "",
        "h\u00e9.example",
        "h st",
        "user@h",
        "H.EXAMPLE",
        "x".repeat(300),
        "0.0.0.0",
        "%68",
        "-",
        "."
    };
    private static final String[] PORTS = {
        "",
        ":80",
        ":443",
        ":8080",
        ":1",
        ":65535",
        ":0",
        ":65536",
        ":-1",
        ":",
        ":99999999999999999999",
        ":0x50",
        ": 80",
        ":+80",
        ":08"
    };
    private static final String[] PATHS = {
        "",
        "/",
        "/a/b",
        "/?q=1",
        "?q",
        "/#f",
        "/a%20b",
        "/\u00e9",
        "/ /",
        "/a\tb",
        "/" + "p".repeat(500),
        "//",
        "/../../etc/passwd"
    };
    private static final String[] NAMES = {
        "Host",
        "Content-Length",
        "Transfer-Encoding",
        "Connection",
        "Proxy-Authorization",
        "Proxy-Connection",
        "Expect",
        "X-ProxyPool-Session",
        "Upgrade",
        "TE",
        "Keep-Alive",
        "X-A",
        "content-length",
        "Trailer",
        "X Bad",
        "",
        "X:Colon",
        "\u00e9",
        "X-\u0000",
        " Host"
    };
    private static final String[] VALUES = {
        "h",
        "5",
        "0",
        "-1",
        "5, 5",
        "5, 6",
        "",
        " ",
        "chunked",
        "gzip, chunked",
        "chunked, gzip",
        "identity",
        "close",
        "keep-alive",
        "Basic YWxpY2U6czNjcmV0",
        "Basic !!!",
        "100-continue",
        "\u00e9\u00ff",
        "a\u0000b",
        "a\rb",
        "99999999999999999999",
        "1e3",
        "h:99999",
        "x".repeat(2000)
    };
    private static final String[] EOLS = {"\r\n", "\r\n", "\r\n", "\n", "\r", "\n\r", "\r\r\n"};

    private RequestHeads() {}

    /** Half mutations of the seeds, half heads assembled from random parts. */
    static byte[] next(SplittableRandom r) {
        if (r.nextBoolean()) {
            byte[] seed = SEEDS[r.nextInt(SEEDS.length)].getBytes(StandardCharsets.ISO_8859_1);
            return MUTATOR.mutate(seed, r);
        }
        return assembled(r).getBytes(r.nextInt(8) == 0 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    }

    private static String assembled(SplittableRandom r) {
        StringBuilder sb = new StringBuilder(256);
        for (int i = r.nextInt(8) == 0 ? r.nextInt(7) : 0; i > 0; i--) {
            sb.append(pick(r, EOLS));
        }
        String method = r.nextInt(4) == 0 ? pick(r, METHODS) : r.nextBoolean() ? "GET" : "CONNECT";
        String host = pick(r, HOSTS);
        String port = pick(r, PORTS);
        String target = method.equals("CONNECT") && r.nextInt(6) != 0
                ? host + port
                : pick(r, new String[] {"http://", "http://", "http://", "HTTP://", "https://", "", "/", "*", "ftp://"})
                        + host
                        + port
                        + pick(r, PATHS);
        String sp = r.nextInt(12) == 0 ? pick(r, new String[] {"  ", "\t", "", " \u0000"}) : " ";
        sb.append(method).append(sp).append(target).append(sp).append(pick(r, VERSIONS));
        String eol = pick(r, EOLS);
        sb.append(eol);
        int headers = r.nextInt(10) == 0 ? r.nextInt(400) : r.nextInt(6);
        for (int i = 0; i < headers; i++) {
            String name = r.nextInt(3) == 0 ? "X-F" + i : pick(r, NAMES);
            sb.append(name)
                    .append(pick(r, new String[] {": ", ":", " : ", ":\t"}))
                    .append(name.equals("Host") && r.nextBoolean() ? host + port : pick(r, VALUES));
            sb.append(r.nextInt(16) == 0 ? pick(r, EOLS) : eol);
        }
        if (r.nextInt(10) != 0) {
            sb.append(eol);
        }
        if (r.nextInt(4) == 0) {
            sb.append(pick(
                    r, new String[] {"hello", "5\r\nhello\r\n0\r\n\r\n", "zz\r\n", "GET http://h/ HTTP/1.1\r\n\r\n"}));
        }
        return sb.toString();
    }

    static <T> T pick(SplittableRandom r, T[] from) {
        return from[r.nextInt(from.length)];
    }
}
