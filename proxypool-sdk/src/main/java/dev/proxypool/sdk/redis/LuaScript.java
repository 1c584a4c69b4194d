package dev.proxypool.sdk.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One Lua script of the store, read from {@code src/main/resources/redis/}. Pool scripts get
 * {@code common.lua} (key layout and index bookkeeping) prepended, so every script agrees on one
 * layout. The SHA-1 is computed here, the same digest Redis gives for {@code SCRIPT LOAD}.
 */
record LuaScript(String name, String source, String sha) {

    private static final String DIR = "/redis/";

    static LuaScript pool(String name) {
        return of(name, read("common.lua") + "\n" + read(name));
    }

    static LuaScript standalone(String name) {
        return of(name, read(name));
    }

    private static LuaScript of(String name, String source) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
            return new LuaScript(name, source, HexFormat.of().formatHex(digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 unavailable", e);
        }
    }

    private static String read(String file) {
        try (InputStream in = LuaScript.class.getResourceAsStream(DIR + file)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + DIR + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script " + DIR + file, e);
        }
    }

    @Override
    public String toString() {
        return name + "@" + sha.substring(0, 8);
    }
}
