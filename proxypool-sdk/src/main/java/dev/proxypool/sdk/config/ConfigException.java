package dev.proxypool.sdk.config;

/** A bad configuration, refused at start: the message names the key and the problem. */
public final class ConfigException extends RuntimeException {

    private final String key;

    public ConfigException(String key, String problem) {
        super(key + ": " + problem);
        this.key = key;
    }

    public ConfigException(String key, String problem, Throwable cause) {
        super(key + ": " + problem, cause);
        this.key = key;
    }

    /** The dotted config key that is wrong, e.g. {@code routings[shop].strategy}. */
    public String key() {
        return key;
    }
}
