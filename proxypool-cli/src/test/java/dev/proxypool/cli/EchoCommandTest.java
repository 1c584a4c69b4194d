package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code proxypool echo}: serves {@code GET /v1/echo} until stopped. */
class EchoCommandTest {

    /** Captures output and signals once a line was printed. */
    private static final class Signalling extends Writer {
        final StringBuffer text = new StringBuffer();
        final CountDownLatch printed = new CountDownLatch(1);

        @Override
        public void write(char[] c, int off, int len) {
            text.append(c, off, len);
        }

        @Override
        public void flush() {
            if (text.indexOf("\n") >= 0) {
                printed.countDown();
            }
        }

        @Override
        public void close() {}
    }

    @Test
    void servesTheEchoEndpointUntilStopped() throws Exception {
        Signalling out = new Signalling();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(new StringWriter(), true));
        AtomicInteger exit = new AtomicInteger(-1);
        Thread t = Thread.ofVirtual().start(() -> exit.set(cl.execute("echo", "--port", "0", "--bind", "127.0.0.1")));
        assertTrue(out.printed.await(10, TimeUnit.SECONDS), "no start line");
        Matcher m = Pattern.compile("serving (http://127\\.0\\.0\\.1:\\d+/v1/echo) \\(Ctrl-C to stop\\)")
                .matcher(out.text);
        assertTrue(m.find(), out.text.toString());
        URI url = URI.create(m.group(1));
        try (HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(url).header("X-Probe", "yes").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            // whatever the JSON's spacing: the caller's address and its header come back
            assertTrue(
                    Pattern.compile("\"ip\"\\s*:\\s*\"127\\.0\\.0\\.1\"")
                            .matcher(r.body())
                            .find(),
                    r.body());
            assertTrue(
                    Pattern.compile("\"X-probe\"\\s*:\\s*\"yes\"")
                            .matcher(r.body())
                            .find(),
                    r.body());

            t.interrupt();
            t.join(Duration.ofSeconds(10));
            assertEquals(Main.EXIT_OK, exit.get());
            assertThrows(
                    ConnectException.class,
                    () -> http.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString()));
        }
    }

    @Test
    void usageErrorsExitTwo() {
        for (String[] args : new String[][] {
            {"echo"},
            {"echo", "--port", "70000"},
            {"echo", "--port", "x"},
            {"echo", "--port", "0", "--bind", "no-such-host.invalid"}
        }) {
            CliRunner.Run r = CliRunner.run(args);
            assertEquals(Main.EXIT_USAGE, r.exit(), String.join(" ", args) + " -> " + r.err());
            assertEquals(1, r.errLines().size(), r.err());
        }
        assertTrue(CliRunner.run("echo", "--port", "70000").err().contains("--port must be 0..65535, got 70000"));
    }

    @Test
    void aPortInUseIsExitOne() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            CliRunner.Run r = CliRunner.run("echo", "--port", Integer.toString(taken.getLocalPort()));
            assertEquals(Main.EXIT_ERROR, r.exit(), r.err());
            assertEquals(1, r.errLines().size(), r.err());
            assertTrue(r.err().startsWith("proxypool echo: echo server cannot bind"), r.err());
        }
    }
}
