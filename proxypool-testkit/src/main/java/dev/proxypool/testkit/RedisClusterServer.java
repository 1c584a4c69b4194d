package dev.proxypool.testkit;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Redis Cluster of the test's own on loopback: {@code masters} masters with
 * {@code replicasPerMaster} replicas each, every node a {@code redis-server} with
 * {@code cluster-enabled yes} in its own temporary directory (no RDB, no AOF), created with
 * {@code redis-cli --cluster create ... --cluster-replicas n --cluster-yes}. {@link #start} returns
 * once every node reports {@code cluster_state:ok} and knows every other node.
 *
 * <p>Ports come from {@value #PORT_LOW}..{@value #PORT_HIGH} (and their cluster bus ports, +10000),
 * picked at random among the free ones, so concurrent test JVMs do not collide. A node can be
 * SIGKILLed ({@link #kill}) and the promotion of its replica awaited ({@link #awaitPromotion}) for
 * failover tests. {@link #close} kills every node and deletes the directory. Every wait is bounded.
 */
public final class RedisClusterServer implements AutoCloseable {

    /** Lowest port a node may get. */
    public static final int PORT_LOW = 7100;
    /** Highest port a node may get. */
    public static final int PORT_HIGH = 7199;

    private static final String SERVER = "/usr/bin/redis-server";
    private static final String CLI = "/usr/bin/redis-cli";
    private static final Duration READY = Duration.ofSeconds(30);
    private static final int START_ATTEMPTS = 5;
    /** Milliseconds without an answer before the cluster deems a node failed (then its replica takes over). */
    private static final Duration NODE_TIMEOUT = Duration.ofMillis(1000);

    private final Path dir;
    private final Map<Integer, Process> nodes = new LinkedHashMap<>();
    /** Node id by port. */
    private final Map<Integer, String> ids = new LinkedHashMap<>();
    /** The master's node id by replica port, as created. */
    private final Map<Integer, String> replicaOf = new LinkedHashMap<>();

    private final int masters;
    private final Duration nodeTimeout;
    private final boolean requireFullCoverage;

    private RedisClusterServer(Path dir, int masters, Duration nodeTimeout, boolean requireFullCoverage) {
        this.dir = dir;
        this.masters = masters;
        this.nodeTimeout = nodeTimeout;
        this.requireFullCoverage = requireFullCoverage;
    }

    /** 3 masters and 3 replicas, started and ready. */
    public static RedisClusterServer start() {
        return start(3, 1);
    }

    /**
     * A cluster of {@code masters} masters (at least 3, as {@code redis-cli --cluster create}
     * requires) with {@code replicasPerMaster} replicas each, started and ready.
     */
    public static RedisClusterServer start(int masters, int replicasPerMaster) {
        return start(masters, replicasPerMaster, NODE_TIMEOUT, false);
    }

    /**
     * As {@link #start(int, int)} with {@code cluster-node-timeout} {@code nodeTimeout} (how long a
     * master may not answer before the cluster deems it failed and promotes its replica) and
     * {@code cluster-require-full-coverage} (Redis' default, yes: while a slot has no live master
     * every node answers {@code CLUSTERDOWN The cluster is down}; no, as {@link #start(int, int)}:
     * the other slots keep serving). Production-like settings (2 s, yes) show what clients see
     * during a promotion.
     */
    public static RedisClusterServer start(
            int masters, int replicasPerMaster, Duration nodeTimeout, boolean requireFullCoverage) {
        if (nodeTimeout.toMillis() < 100) {
            throw new IllegalArgumentException("a cluster-node-timeout below 100 ms fails healthy nodes");
        }
        if (masters < 3 || replicasPerMaster < 0) {
            throw new IllegalArgumentException("a Redis Cluster needs at least 3 masters and no negative replicas");
        }
        int total = masters * (1 + replicasPerMaster);
        IllegalStateException last = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            RedisClusterServer c;
            try {
                c = new RedisClusterServer(
                        Files.createTempDirectory("pp-redis-cluster"), masters, nodeTimeout, requireFullCoverage);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            try {
                for (int port : freePorts(total)) {
                    c.launch(port);
                }
                c.create(replicasPerMaster);
                return c;
            } catch (IllegalStateException e) { // a port taken in between, most likely: another try
                last = e;
                c.close();
            }
        }
        throw last;
    }

    /** The seed addresses {@code host:port} of every node, masters and replicas. */
    public List<String> nodes() {
        return nodes.keySet().stream().map(p -> "127.0.0.1:" + p).toList();
    }

    /** The ports of every node. */
    public List<Integer> ports() {
        return List.copyOf(nodes.keySet());
    }

    /** The ports of the nodes that are masters now (alive ones, per {@code CLUSTER NODES}). */
    public List<Integer> masterPorts() {
        List<Integer> out = new ArrayList<>();
        for (String[] n : clusterNodes()) {
            if (n[2].contains("master") && !n[2].contains("fail")) {
                out.add(port(n[1]));
            }
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    /** The port of the master serving {@code key} now (by its hash slot). */
    public int masterOf(String key) {
        long slot = Long.parseLong(String.valueOf(command(anyLivePort(), "CLUSTER", "KEYSLOT", key)));
        for (String[] n : clusterNodes()) {
            if (!n[2].contains("master") || n[2].contains("fail")) {
                continue;
            }
            for (int i = 8; i < n.length; i++) {
                String range = n[i];
                if (range.startsWith("[")) {
                    continue; // a slot in migration
                }
                int dash = range.indexOf('-');
                long from = Long.parseLong(dash < 0 ? range : range.substring(0, dash));
                long to = Long.parseLong(dash < 0 ? range : range.substring(dash + 1));
                if (slot >= from && slot <= to) {
                    return port(n[1]);
                }
            }
        }
        throw new IllegalStateException("no live master serves slot " + slot + " of key " + key);
    }

    /** The ports of the live replicas of the master on {@code masterPort} now (per {@code CLUSTER NODES}). */
    public List<Integer> replicasOf(int masterPort) {
        String masterId = null;
        List<String[]> all = clusterNodes();
        for (String[] n : all) {
            if (port(n[1]) == masterPort) {
                masterId = n[0];
            }
        }
        List<Integer> out = new ArrayList<>();
        for (String[] n : all) {
            if (n[3].equals(masterId) && n[2].contains("slave") && !n[2].contains("fail")) {
                out.add(port(n[1]));
            }
        }
        return out;
    }

    /**
     * SIGSTOP of the node on {@code port}: it keeps its connections open and answers nothing, neither
     * clients nor its master (a replica acknowledges no write meanwhile), as a node hung by its host,
     * until {@link #resume}. Pause it for less than the cluster's node timeout, or the cluster
     * deems it failed.
     */
    public void pause(int port) {
        signal(port, "-STOP");
    }

    /** SIGCONT of a node {@link #pause paused}: it goes on where it stopped. */
    public void resume(int port) {
        signal(port, "-CONT");
    }

    private void signal(int port, String signal) {
        Process p = nodes.get(port);
        if (p == null || !p.isAlive()) {
            throw new IllegalArgumentException("no live node on port " + port);
        }
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(p.pid()))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill " + signal + " of redis-server on port " + port + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGKILL of the node on {@code port}: no shutdown, no reply to anyone in flight. */
    public void kill(int port) {
        Process p = nodes.get(port);
        if (p == null) {
            throw new IllegalArgumentException("no node on port " + port);
        }
        p.destroyForcibly();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("redis-server on port " + port + " did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits (at most {@code timeout}) until a replica of the killed master on {@code killedPort}
     * is a master and the cluster reports {@code cluster_state:ok} again on every live node;
     * returns the port of the promoted node.
     */
    public int awaitPromotion(int killedPort, Duration timeout) {
        String killedId = ids.get(killedPort);
        int promoted = Await.atMost(timeout)
                .every(Duration.ofMillis(100))
                .until(
                        "a replica of the master on " + killedPort + " promoted",
                        () -> promotedFor(killedId),
                        p -> p > 0);
        Await.atMost(timeout).every(Duration.ofMillis(100)).until("cluster ok after failover", () -> {
            for (int port : livePorts()) {
                if (!String.valueOf(command(port, "CLUSTER", "INFO")).contains("cluster_state:ok")) {
                    return false;
                }
            }
            return true;
        });
        return promoted;
    }

    /** The port of a live node that was a replica of {@code masterId} and is a master now, or -1. */
    private int promotedFor(String masterId) {
        for (String[] n : clusterNodes()) {
            int port = port(n[1]);
            if (masterId.equals(replicaOf.get(port))
                    && n[2].contains("master")
                    && !n[2].contains("fail")
                    && nodes.get(port).isAlive()) {
                return port;
            }
        }
        return -1;
    }

    /** The ports whose process is alive. */
    public List<Integer> livePorts() {
        return nodes.entrySet().stream()
                .filter(e -> e.getValue().isAlive())
                .map(Map.Entry::getKey)
                .toList();
    }

    private int anyLivePort() {
        List<Integer> live = livePorts();
        if (live.isEmpty()) {
            throw new IllegalStateException("no live node");
        }
        return live.get(0);
    }

    /** {@code CLUSTER NODES} of a live node, one array of fields per node. */
    private List<String[]> clusterNodes() {
        String text = String.valueOf(command(anyLivePort(), "CLUSTER", "NODES"));
        List<String[]> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                out.add(line.trim().split(" "));
            }
        }
        return out;
    }

    private static int port(String address) { // ip:port@busport
        int colon = address.lastIndexOf(':');
        int at = address.indexOf('@');
        return Integer.parseInt(address.substring(colon + 1, at < 0 ? address.length() : at));
    }

    private void launch(int port) {
        Path nodeDir = dir.resolve(Integer.toString(port));
        try {
            Files.createDirectories(nodeDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> cmd = List.of(
                SERVER,
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--dir",
                nodeDir.toString(),
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                nodeDir.resolve("nodes.conf").toString(),
                "--cluster-node-timeout",
                Long.toString(nodeTimeout.toMillis()),
                "--cluster-replica-validity-factor",
                "0",
                "--cluster-require-full-coverage",
                requireFullCoverage ? "yes" : "no",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no");
        Process p;
        try {
            p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(nodeDir.resolve("log").toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + SERVER, e);
        }
        nodes.put(port, p);
        try {
            Await.atMost(Duration.ofSeconds(15)).every(Duration.ofMillis(20)).until("redis-server on " + port, () -> {
                if (!p.isAlive()) {
                    throw new IllegalStateException("redis-server on " + port + " exited: " + log(nodeDir));
                }
                return "PONG".equals(command(port, "PING"));
            });
        } catch (AssertionError e) {
            throw new IllegalStateException("redis-server on port " + port + " did not start: " + log(nodeDir), e);
        }
        ids.put(port, String.valueOf(command(port, "CLUSTER", "MYID")));
    }

    private static String log(Path nodeDir) {
        try {
            return Files.readString(nodeDir.resolve("log"));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private void create(int replicasPerMaster) {
        List<String> cmd = new ArrayList<>(List.of(CLI, "--cluster", "create"));
        cmd.addAll(nodes());
        cmd.addAll(List.of("--cluster-replicas", Integer.toString(replicasPerMaster), "--cluster-yes"));
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("create.log").toFile())
                    .start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("redis-cli --cluster create did not finish in 60 s");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(
                        "redis-cli --cluster create failed: " + Files.readString(dir.resolve("create.log")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        int total = nodes.size();
        try {
            Await.atMost(READY).every(Duration.ofMillis(100)).until("cluster ok on every node", () -> {
                for (int port : nodes.keySet()) {
                    String info = String.valueOf(command(port, "CLUSTER", "INFO"));
                    if (!info.contains("cluster_state:ok") || !info.contains("cluster_known_nodes:" + total)) {
                        return false;
                    }
                }
                return masterPorts().size() == masters;
            });
            if (replicasPerMaster > 0) {
                Await.atMost(READY).every(Duration.ofMillis(100)).until("replicas in sync", () -> {
                    for (int port : nodes.keySet()) {
                        String role = String.valueOf(command(port, "INFO", "replication"));
                        if (role.contains("role:slave") && !role.contains("master_link_status:up")) {
                            return false;
                        }
                    }
                    return true;
                });
            }
        } catch (AssertionError e) {
            throw new IllegalStateException("the Redis Cluster did not become ready: " + e.getMessage(), e);
        }
        for (String[] n : clusterNodes()) {
            if (n[2].contains("slave")) {
                replicaOf.put(port(n[1]), n[3]);
            }
        }
    }

    /** {@code count} distinct free ports in the range whose bus ports are free too, in random order. */
    private static List<Integer> freePorts(int count) {
        List<Integer> candidates = new ArrayList<>();
        for (int p = PORT_LOW; p <= PORT_HIGH; p++) {
            candidates.add(p);
        }
        Collections.shuffle(candidates, ThreadLocalRandom.current());
        List<Integer> out = new ArrayList<>();
        for (int p : candidates) {
            if (free(p) && free(p + 10000)) {
                out.add(p);
                if (out.size() == count) {
                    return out;
                }
            }
        }
        throw new IllegalStateException("fewer than " + count + " free ports in " + PORT_LOW + ".." + PORT_HIGH);
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * One command to the node on {@code port} (RESP over a fresh socket, 2 s bounds): a simple or
     * bulk string, an integer as {@link Long}, or the error text as an {@link IllegalStateException}.
     */
    public static Object command(int port, String... args) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            StringBuilder req = new StringBuilder("*").append(args.length).append("\r\n");
            for (String a : args) {
                byte[] b = a.getBytes(StandardCharsets.UTF_8);
                req.append('$').append(b.length).append("\r\n").append(a).append("\r\n");
            }
            out.write(req.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = new BufferedInputStream(s.getInputStream());
            int type = in.read();
            String line = readLine(in);
            return switch (type) {
                case '+' -> line;
                case ':' -> Long.parseLong(line);
                case '-' -> throw new IllegalStateException(line);
                case '$' -> {
                    int n = Integer.parseInt(line);
                    if (n < 0) {
                        yield null;
                    }
                    byte[] body = in.readNBytes(n);
                    yield new String(body, StandardCharsets.UTF_8);
                }
                default -> throw new IllegalStateException("unexpected reply type " + (char) type + line);
            };
        } catch (IOException e) {
            throw new UncheckedIOException("redis on port " + port + ": " + e.getMessage(), e);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c; (c = in.read()) != -1; ) {
            if (c == '\r') {
                in.read();
                break;
            }
            sb.append((char) c);
        }
        return sb.toString();
    }

    @Override
    public void close() {
        for (Process p : nodes.values()) {
            p.destroyForcibly();
        }
        for (Process p : nodes.values()) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException ignored) {
            // best effort: a temporary directory
        }
    }

    @Override
    public String toString() {
        return "RedisClusterServer" + nodes();
    }
}
