package dev.proxypool.sdk.provider;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * One configured provider ({@code providers[]} in {@code proxypool.yaml}): its name, its adapter
 * type, the adapter's settings and the field mapping, all as plain strings so the config layer
 * stays independent of adapters. Each adapter validates its own settings when it is created and
 * refuses unknown keys, naming {@code providers[<name>].<key>}.
 *
 * <p>Settings keys (which ones an adapter accepts is listed in its type's javadoc):
 * <table>
 *   <caption>provider settings</caption>
 *   <tr><th>key</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code path}</td><td>a local file (relative to the environment's base directory)</td><td>-</td></tr>
 *   <tr><td>{@code url}</td><td>an {@code http(s)} URL; {@code {param}} placeholders are filled from the
 *       upstream's params, URL-encoded</td><td>-</td></tr>
 *   <tr><td>{@code tokenEnv}</td><td>env var holding a bearer token ({@code Authorization: Bearer})</td><td>none</td></tr>
 *   <tr><td>{@code username}, {@code passwordEnv}</td><td>basic auth: user name, env var holding the password</td><td>none</td></tr>
 *   <tr><td>{@code protocol}</td><td>protocol for records without one ({@code host:port} lines)</td><td>none</td></tr>
 *   <tr><td>{@code credentialRef}</td><td>credential store ref for records without one</td><td>none</td></tr>
 *   <tr><td>{@code maxBytes}</td><td>size cap of one answer ({@code 5242880}, {@code 512KB}, {@code 5MB})</td><td>5 MB</td></tr>
 *   <tr><td>{@code timeout}</td><td>HTTP connect and read timeout ({@code 10s}, {@code 500ms}, {@code PT10S})</td><td>10 s</td></tr>
 *   <tr><td>{@code maxConcurrency}, {@code weight}</td><td>defaults for records without them</td><td>10, 1</td></tr>
 *   <tr><td>{@code listField}</td><td>{@code http_json_feed}: dotted path of the list in an object answer</td><td>none</td></tr>
 *   <tr><td>{@code expiresAtFormat}</td><td>{@code auto}, {@code epochSeconds}, {@code epochMillis}, {@code iso8601}, {@code dateTime}
 *       ({@code YYYY-MM-DD HH:MM:SS})</td><td>auto</td></tr>
 *   <tr><td>{@code expiresAtZone}</td><td>the zone of an expiry without an offset ({@code Asia/Shanghai},
 *       {@code +08:00}); without it {@code auto} refuses such an expiry</td><td>none ({@code dateTime}: UTC)</td></tr>
 *   <tr><td>{@code delimiter}</td><td>{@code csv}: one-character column separator</td><td>{@code ,}</td></tr>
 *   <tr><td>{@code labels.<k>}</td><td>a static label {@code k} on every record of this provider</td><td>-</td></tr>
 *   <tr><td>{@code endpoint}, {@code preset}, {@code usernameTemplate}, {@code passwordTemplate},
 *       {@code lifetimeUnit}, {@code sessions}, {@code sessionLifetime}, {@code sessionIdLength},
 *       {@code sessionIdAlphabet}</td><td>{@code session_gateway}: see {@code SessionGatewayAdapter}
 *       and docs/providers.md</td><td>-</td></tr>
 * </table>
 *
 * <p>Fields map the normalized names ({@code host port protocol credentialRef expiresAt ttlSeconds
 * maxConcurrency weight labels labels.<k>}) to the source's names:
 * {@code host: ip}, {@code port: port}, {@code expiresAt: expire_time}, {@code labels.country: cc}.
 * {@code username} and {@code password} are refused: a proxy never carries its secret, a feed that
 * lists credentials must have them moved into the credential store and referenced by
 * {@code credentialRef}.
 *
 * @param name     provider name, unique in the config
 * @param type     adapter type, e.g. {@code http_json_feed}
 * @param settings adapter settings (copied, sorted)
 * @param fields   field mapping, normalized name to source name (copied, sorted)
 */
public record ProviderConfig(String name, String type, Map<String, String> settings, Map<String, String> fields) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    /**
     * Copies the maps and validates.
     *
     * @throws IllegalArgumentException naming {@code providers[<name>]...} for an invalid name, a missing type or an empty key or value
     */
    public ProviderConfig {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("providers[" + name + "].name: '" + name
                    + "' is invalid (letters, digits, '.', '_', '-'; at most 64 characters)");
        }
        if (type == null || type.isBlank()) {
            throw new IllegalArgumentException("providers[" + name + "].type is missing");
        }
        settings = copy(name, "", settings);
        fields = copy(name, "fields.", fields);
    }

    /**
     * A config without a field mapping (source names equal the normalized names).
     *
     * @param name     the provider name
     * @param type     the adapter type
     * @param settings the adapter settings
     * @return the config
     */
    public static ProviderConfig of(String name, String type, Map<String, String> settings) {
        return new ProviderConfig(name, type, settings, Map.of());
    }

    /**
     * {@code providers[<name>].<key>}: how messages name a setting of this provider.
     *
     * @param key the setting
     * @return the key as messages name it
     */
    public String keyName(String key) {
        return "providers[" + name + "]." + key;
    }

    private static Map<String, String> copy(String name, String prefix, Map<String, String> in) {
        TreeMap<String, String> out = new TreeMap<>();
        if (in != null) {
            for (Map.Entry<String, String> e : in.entrySet()) {
                if (e.getKey() == null || e.getKey().isBlank()) {
                    throw new IllegalArgumentException("providers[" + name + "]." + prefix + ": empty key");
                }
                if (e.getValue() == null) {
                    throw new IllegalArgumentException(
                            "providers[" + name + "]." + prefix + e.getKey() + " has no value");
                }
                out.put(e.getKey().trim(), e.getValue().trim());
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** Settings may name env vars but never hold secrets; still, keep values out of logs. */
    @Override
    public String toString() {
        return "ProviderConfig[" + name + " type=" + type + " settings=" + settings.keySet() + "]";
    }
}
