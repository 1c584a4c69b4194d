package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Lua script of the SDK takes the keys it touches from {@code KEYS}, so the same scripts can
 * run where Redis routes a script by its declared keys (Redis Cluster). The check reads each
 * {@code redis.call} / {@code redis.pcall} and requires each key argument (by command: the first
 * argument, every argument of multi-key commands, none for {@code PUBLISH}) to be a
 * {@code KEYS[...]} reference, {@code unpack(KEYS...)}, or a variable only ever assigned a
 * {@code KEYS[...]} reference. Anything else — a name built with {@code ..}, an {@code ARGV} value,
 * a member read from a set, a function parameter — is key construction.
 */
class RedisScriptKeysTest {

    private static final Path RESOURCES = Path.of("src/main/resources");

    /** The pool scripts, which RedisPoolStore runs with {@code redis/common.lua} prepended: checked so. */
    private static final Set<String> WITH_COMMON = Set.of(
            "redis/commit.lua",
            "redis/counts.lua",
            "redis/extract.lua",
            "redis/get.lua",
            "redis/list.lua",
            "redis/mark_checked.lua",
            "redis/mark_health.lua",
            "redis/publish.lua",
            "redis/purge.lua",
            "redis/release.lua",
            "redis/remove.lua",
            "redis/set_disabled.lua",
            "redis/tombstoned.lua",
            "redis/total.lua");

    /** Commands whose every argument is a key. */
    private static final Set<String> ALL_KEYS =
            Set.of("DEL", "UNLINK", "EXISTS", "TOUCH", "MGET", "SINTER", "SUNION", "SDIFF", "WATCH", "PFCOUNT");
    /** Commands with no key argument. */
    private static final Set<String> NO_KEYS = Set.of("PUBLISH", "TIME", "PING", "ECHO");

    @Test
    void everyScriptTakesItsKeysFromKEYS() throws IOException {
        Map<String, List<String>> found = violationsByScript();
        assertTrue(found.size() >= 20, "all scripts found: " + found.keySet());
        assertTrue(found.keySet().containsAll(WITH_COMMON), "the pool scripts are checked: " + found.keySet());
        Map<String, List<String>> bad = new TreeMap<>();
        found.forEach((script, problems) -> {
            if (!problems.isEmpty()) {
                bad.put(script, problems);
            }
        });
        assertEquals(Map.of(), bad, "scripts that compute key names instead of taking them from KEYS");
    }

    @Test
    void theCheckRecognisesKeyConstruction() {
        assertEquals(1, violations("redis.call('GET', P .. 'p:' .. id)").size());
        assertEquals(
                1,
                violations("local k = ARGV[1] .. id\nredis.call('HGET', k, 'f')")
                        .size());
        assertEquals(
                1,
                violations("for _, id in ipairs(x) do redis.call('DEL', KEYS[1], id) end")
                        .size());
        assertEquals(
                1,
                violations("local o = redis.call('ZPOPMIN', KEYS[2])\nredis.call('DEL', o[1])")
                        .size());
        assertEquals(
                1,
                violations("local function f(key) return redis.call('GET', key) end")
                        .size());
        assertEquals(
                1, violations("redis.pcall('SINTER', KEYS[1], unpack(others))").size());
        assertEquals(
                1,
                violations("local k = KEYS[1]\nk = ARGV[2]\nredis.call('GET', k)")
                        .size());

        assertEquals(List.of(), violations("-- redis.call('GET', P .. 'x')\nredis.call('GET', KEYS[1])"));
        assertEquals(List.of(), violations("--[[ redis.call('GET', P .. 'x') ]]\nreturn 1"));
        assertEquals(List.of(), violations("local a, k = 1, KEYS[3]\nredis.call('HSET', k, ARGV[1] .. 'f', 'v')"));
        assertEquals(List.of(), violations("redis.call('EXISTS', KEYS[i + 1])\nredis.call('MGET', unpack(KEYS, 2))"));
        assertEquals(List.of(), violations("redis.call('PUBLISH', ARGV[6], ARGV[7])"));
        assertEquals(List.of(), violations("redis.call('SET', KEYS[1], 'a,b)', 'PX', ARGV[1])"));
    }

    private static Map<String, List<String>> violationsByScript() throws IOException {
        Map<String, List<String>> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(RESOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".lua")).toList()) {
                String name = RESOURCES.relativize(f).toString().replace('\\', '/');
                String source = Files.readString(f, StandardCharsets.UTF_8);
                if (WITH_COMMON.contains(name)) {
                    source = Files.readString(RESOURCES.resolve("redis/common.lua"), StandardCharsets.UTF_8) + "\n"
                            + source;
                }
                out.put(name, violations(source));
            }
        }
        return out;
    }

    private static final Pattern CALL = Pattern.compile("\\bredis\\.p?call\\s*\\(");
    private static final Pattern ASSIGNMENT =
            Pattern.compile("(?m)^\\s*(?:local\\s+)?([A-Za-z_][\\w]*(?:\\s*,\\s*[A-Za-z_][\\w]*)*)\\s*=(?!=)\\s*(.+)$");
    private static final Pattern KEYS_REF = Pattern.compile("KEYS\\s*\\[[^\\]]+\\]");
    private static final Pattern KEYS_UNPACK = Pattern.compile("unpack\\s*\\(\\s*KEYS\\b[^)]*\\)");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_]\\w*");

    /** The key arguments of {@code source}'s Redis calls that do not come from KEYS, one line each. */
    static List<String> violations(String source) {
        String code = stripComments(source);
        Map<String, List<String>> assigned = new HashMap<>();
        Matcher a = ASSIGNMENT.matcher(code);
        while (a.find()) {
            List<String> names = List.of(a.group(1).split("\\s*,\\s*"));
            List<String> values = splitTopLevel(a.group(2));
            for (int i = 0; i < names.size(); i++) {
                assigned.computeIfAbsent(names.get(i).trim(), k -> new ArrayList<>())
                        .add(i < values.size() ? values.get(i).trim() : "nil");
            }
        }
        List<String> problems = new ArrayList<>();
        Matcher m = CALL.matcher(code);
        while (m.find()) {
            int close = matching(code, m.end() - 1);
            List<String> args = splitTopLevel(code.substring(m.end(), close));
            String command = args.isEmpty() ? "" : args.get(0).trim();
            if (!command.matches("'[A-Za-z]+'|\"[A-Za-z]+\"")) {
                problems.add("command is not a literal: " + command);
                continue;
            }
            command = command.substring(1, command.length() - 1).toUpperCase(java.util.Locale.ROOT);
            if (NO_KEYS.contains(command)) {
                continue;
            }
            List<String> keyArgs = ALL_KEYS.contains(command)
                    ? args.subList(1, args.size())
                    : args.subList(1, Math.min(2, args.size()));
            for (String key : keyArgs) {
                if (!fromKeys(key.trim(), assigned)) {
                    problems.add(command + " key " + key.trim());
                }
            }
        }
        return problems;
    }

    private static boolean fromKeys(String expr, Map<String, List<String>> assigned) {
        if (KEYS_REF.matcher(expr).matches() || KEYS_UNPACK.matcher(expr).matches()) {
            return true;
        }
        if (!NAME.matcher(expr).matches() || !assigned.containsKey(expr)) {
            return false; // built, read from data, or a parameter: not traceable to KEYS
        }
        for (String value : assigned.get(expr)) {
            if (!KEYS_REF.matcher(value).matches()) {
                return false;
            }
        }
        return true;
    }

    /** Index of the parenthesis closing the one at {@code open}, skipping strings. */
    private static int matching(String code, int open) {
        int depth = 0;
        for (int i = open; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '\'' || c == '"') {
                i = endOfString(code, i);
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                depth--;
                if (depth == 0) {
                    return i;
                }
            }
        }
        throw new IllegalArgumentException("unbalanced call at " + open);
    }

    private static List<String> splitTopLevel(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'' || c == '"') {
                i = endOfString(s, i);
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        if (start < s.length() && !s.substring(start).isBlank()) {
            out.add(s.substring(start));
        }
        return out;
    }

    private static int endOfString(String s, int open) {
        char q = s.charAt(open);
        for (int i = open + 1; i < s.length(); i++) {
            if (s.charAt(i) == '\\') {
                i++;
            } else if (s.charAt(i) == q) {
                return i;
            }
        }
        return s.length() - 1;
    }

    /** Drops {@code --[[ ... ]]} and {@code -- ...} comments, keeping strings intact. */
    private static String stripComments(String source) {
        StringBuilder out = new StringBuilder(source.length());
        for (int i = 0; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '\'' || c == '"') {
                int end = endOfString(source, i);
                out.append(source, i, end + 1);
                i = end;
            } else if (source.startsWith("--[[", i)) {
                int end = source.indexOf("]]", i);
                i = end < 0 ? source.length() : end + 1;
                out.append('\n');
            } else if (source.startsWith("--", i)) {
                int end = source.indexOf('\n', i);
                i = end < 0 ? source.length() : end - 1;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
