package dev.proxypool.sdk.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One Lua script run through {@link RedisAccess}: its name (for messages), source and SHA-1, the
 * same digest Redis gives for {@code SCRIPT LOAD}, so {@code EVALSHA} needs no load round trip
 * while Redis still has the script. A script takes the keys it touches in {@code KEYS}, computed
 * by the Java side ({@code RedisScriptKeysTest} checks every bundled script, the pool scripts with
 * their {@code redis/common.lua} prelude).
 *
 * @param name   the resource name, for messages
 * @param source the Lua source as sent to Redis
 * @param sha    hex SHA-1 of {@code source}
 */
public record RedisScript(String name, String source, String sha) {

    /**
     * The script at classpath resource {@code path} (e.g. {@code /lock/lease_renew.lua}).
     *
     * @throws IllegalStateException when the resource is missing
     */
    public static RedisScript resource(String path) {
        return of(path.substring(path.lastIndexOf('/') + 1), read(path));
    }

    /**
     * The script at resource {@code path} with the resource {@code prelude} prepended (shared
     * local functions such as {@code /redis/common.lua}).
     */
    public static RedisScript withPrelude(String prelude, String path) {
        return of(path.substring(path.lastIndexOf('/') + 1), read(prelude) + "\n" + read(path));
    }

    /** A script of the given source; its SHA-1 computed here. */
    public static RedisScript of(String name, String source) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
            return new RedisScript(name, source, HexFormat.of().formatHex(digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 unavailable", e);
        }
    }

    private static String read(String path) {
        try (InputStream in = RedisScript.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script " + path, e);
        }
    }

    @Override
    public String toString() {
        return name + "@" + sha.substring(0, 8);
    }
}
