package dev.proxypool.server.gateway;

/**
 * Read-only access to the client's request headers for routing decisions (routing rules match on
 * a header; sticky sessions read {@code X-ProxyPool-Session}).
 */
@FunctionalInterface
public interface HeaderLookup {

    /**
     * The first value of a header, name compared case-insensitively.
     *
     * @return the value, or {@code null} when absent (hot path: no Optional)
     */
    String first(String name);

    HeaderLookup NONE = name -> null;
}
