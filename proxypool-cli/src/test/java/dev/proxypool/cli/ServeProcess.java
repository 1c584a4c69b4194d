package dev.proxypool.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A {@code proxypool serve} child JVM on the test class path, its ports set through the environment,
 * its output collected; {@link #start} returns once it says it serves. The caller stops it.
 */
public final class ServeProcess {

    private final Process process;
    private final StringBuilder log = new StringBuilder();

    private ServeProcess(Process process) {
        this.process = process;
    }

    /**
     * Starts {@code launcher... java ... Main serve serveArgs...} in {@code dir} (null: this directory).
     *
     * @param launcher words before the java command (e.g. a shell that lowers {@code ulimit -n}), or none
     */
    public static ServeProcess start(
            List<String> launcher, Path dir, int gatewayPort, int apiPort, List<String> serveArgs)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.proxypool.cli.Main",
                "serve"));
        command.addAll(serveArgs);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        pb.environment().put("PROXYPOOL_SERVER_GATEWAYPORT", Integer.toString(gatewayPort));
        pb.environment().put("PROXYPOOL_SERVER_APIPORT", Integer.toString(apiPort));
        ServeProcess s = new ServeProcess(pb.start());
        CountDownLatch up = new CountDownLatch(1);
        Thread.ofVirtual().start(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(s.process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    synchronized (s.log) {
                        s.log.append(line).append('\n');
                    }
                    if (line.startsWith("proxypool: gateway on")) {
                        up.countDown();
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
        if (!up.await(60, TimeUnit.SECONDS)) {
            s.process.destroyForcibly();
            throw new AssertionError("serve " + serveArgs + " did not start:\n" + s.log());
        }
        return s;
    }

    public Process process() {
        return process;
    }

    /** Everything the process printed so far. */
    public String log() {
        synchronized (log) {
            return log.toString();
        }
    }
}
