package dev.proxypool.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.FakeHttpProxy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every REST path family that takes a bearer token (Distribution, proxy leases, feedback, admin,
 * the node registry's admin and node calls) reads it the same way and refuses it with the same
 * {@code 401} and {@code WWW-Authenticate: Bearer realm="proxypool"}: one real server, raw HTTP/1.1
 * requests on loopback so the header bytes are exactly the ones under test.
 */
class BearerChallengeTest {

    private static final String CLIENT = "client-token-0123456789";
    private static final String ADMIN = "admin-token-0123456789";

    @TempDir
    Path dir;

    /** One protected call: its method, path, body and the token it takes. */
    private record Call(String family, String method, String path, String body, String token) {}

    @Test
    void everyFamilyReadsTheTokenOneWayAndAnswersOneChallenge() throws Exception {
        try (FakeHttpProxy node = FakeHttpProxy.start()) {
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    admin: { token: %s }
                    clients: [{ name: alice, secret: alice-secret, token: %s }]
                    health: { active: { enabled: false } }
                    """.formatted(ADMIN, CLIENT));
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                    .configDir(dir)
                    .start()) {
                int port = server.apiPort();
                // a registered node, for the node-credential calls
                Reply issued =
                        send(port, "POST", "/v1/nodes/tokens", "{\"name\": \"rack-1\"}", List.of("Bearer " + ADMIN));
                assertEquals(201, issued.status(), issued.body());
                Reply registered = send(
                        port,
                        "POST",
                        "/v1/nodes",
                        "{\"token\": \"" + field(issued.body(), "token") + "\", \"host\": \"127.0.0.1\", \"port\": "
                                + node.port() + ", \"protocol\": \"http\"}",
                        List.of());
                assertEquals(201, registered.status(), registered.body());
                String nodeId = field(registered.body(), "nodeId");
                String credential = field(registered.body(), "credential");

                List<Call> calls = List.of(
                        new Call("distribution", "POST", "/v1/extractions", "{\"count\": 1}", CLIENT),
                        new Call("lease", "POST", "/v1/proxy/acquire", "{\"host\": \"shop.example\"}", CLIENT),
                        new Call("feedback", "POST", "/v1/feedback", "{}", CLIENT),
                        new Call("admin", "GET", "/v1/admin/providers", null, ADMIN),
                        new Call("nodes (admin)", "GET", "/v1/nodes", null, ADMIN),
                        new Call("nodes (node)", "POST", "/v1/nodes/" + nodeId + "/heartbeat", "{}", credential),
                        new Call("nodes (admin or node)", "GET", "/v1/nodes/" + nodeId, null, ADMIN),
                        new Call("nodes (node or admin)", "GET", "/v1/nodes/" + nodeId, null, credential));
                for (Call c : calls) {
                    for (List<String> refused : refused(c.token())) {
                        Reply r = send(port, c.method(), c.path(), c.body(), refused);
                        String what = c.family() + " with " + refused.size() + " field(s) " + shown(refused);
                        assertEquals(401, r.status(), what + ": " + r.body());
                        assertEquals(List.of("Bearer realm=\"proxypool\""), r.header("www-authenticate"), what);
                        assertTrue(r.body().contains("\"unauthorized\""), what + ": " + r.body());
                    }
                    for (String accepted : accepted(c.token())) {
                        Reply r = send(port, c.method(), c.path(), c.body(), List.of(accepted));
                        String what = c.family() + " with " + shown(List.of(accepted));
                        assertNotEquals(401, r.status(), what + ": " + r.body());
                        assertEquals(List.of(), r.header("www-authenticate"), what);
                    }
                }
            }
        }
    }

    /** Authorization fields that carry no valid token: each answered 401 with the one challenge. */
    private static List<List<String>> refused(String token) {
        return List.of(
                List.of(),
                List.of("Bearer wrong-token-0123456789"),
                List.of("Bearer " + token + "x"),
                List.of("Bearer"),
                List.of("Bearer" + token),
                List.of("Basic " + token),
                List.of(token),
                List.of("Bearer " + token, "Bearer " + token),
                List.of("Bearer " + token.toUpperCase(Locale.ROOT)));
    }

    /** The same valid token written every way the rule allows. */
    private static List<String> accepted(String token) {
        return List.of("Bearer " + token, "bearer " + token, "BEARER   " + token, "bEaReR\t" + token + "\t ");
    }

    private static String shown(List<String> fields) {
        return fields.stream()
                .map(f -> "[" + f.replace("\t", "\\t") + "]")
                .toList()
                .toString();
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
        assertTrue(m.find(), name + " in " + json);
        return m.group(1);
    }

    private record Reply(int status, Map<String, List<String>> headers, String body) {
        List<String> header(String name) {
            return headers.getOrDefault(name, List.of());
        }
    }

    /** One HTTP/1.1 request with exactly these Authorization fields; the connection closes after it. */
    private static Reply send(int port, String method, String path, String body, List<String> authorization)
            throws IOException {
        StringBuilder head = new StringBuilder()
                .append(method)
                .append(' ')
                .append(path)
                .append(" HTTP/1.1\r\nHost: 127.0.0.1:")
                .append(port)
                .append("\r\nConnection: close\r\n");
        for (String a : authorization) {
            head.append("Authorization: ").append(a).append("\r\n");
        }
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        if (body != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ")
                    .append(content.length)
                    .append("\r\n");
        }
        head.append("\r\n");
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            s.setSoTimeout(15_000);
            OutputStream out = s.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(content);
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            assertTrue(end > 0, "a complete response head: " + text);
            String[] lines = text.substring(0, end).split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            Map<String, List<String>> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.computeIfAbsent(
                                lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(lines[i].substring(colon + 1).trim());
            }
            return new Reply(status, headers, text.substring(end + 4));
        }
    }
}
