package dev.proxypool.sdk.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** One Lua script of the cluster, read from {@code src/main/resources/redis/cluster/}, with its SHA-1. */
record ClusterScript(String name, String source, String sha) {

    static final ClusterScript PUBLISH = load("snapshot_publish.lua");
    static final ClusterScript HEAD = load("snapshot_head.lua");
    static final ClusterScript HEARTBEAT = load("worker_heartbeat.lua");
    static final ClusterScript LIVE = load("worker_live.lua");

    private static ClusterScript load(String name) {
        String path = "/redis/cluster/" + name;
        try (InputStream in = ClusterScript.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + path);
            }
            String source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
            return new ClusterScript(name, source, HexFormat.of().formatHex(digest));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script " + path, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 unavailable", e);
        }
    }

    @Override
    public String toString() {
        return name + "@" + sha.substring(0, 8);
    }
}
