package dev.proxypool.sdk.redis;

/**
 * {@link RedisPoolStore} found pool data of the previous key layout (per-proxy keys under the bare
 * key prefix) and refuses to start beside it: it would not see those proxies, and serving an empty
 * pool next to them would silently drop their tombstones (an extracted proxy could be handed out
 * again). The message names the Redis, the prefix, a key found and what to do.
 */
public final class PreviousLayoutException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * @param where   the Redis, for the message
     * @param prefix  the configured key prefix
     * @param poolTag the start of the current layout's pool keys
     * @param found   one key of the previous layout found under the prefix
     */
    PreviousLayoutException(String where, String prefix, String poolTag, String found) {
        super("Redis at " + where + " holds pool data of the previous key layout under store.keyPrefix '" + prefix
                + "' (e.g. key '" + found + "'); this version keeps the pool in keys starting with '" + poolTag
                + "' and does not read the old ones. Stop every process of the previous version, then either"
                + " configure a new store.keyPrefix, or delete the old pool keys (patterns '" + prefix + "p:*', '"
                + prefix + "k:*', '" + prefix + "t:*', '" + prefix + "a:*', '" + prefix + "d:*', '" + prefix
                + "x:*', '" + prefix + "i:*' and keys '" + prefix + "ids', '" + prefix + "ups', '" + prefix
                + "iz', '" + prefix + "iseq'): the pool refills from the next collection runs, and the"
                + " tombstones of extracted proxies are lost with them (docs/configuration.md#store)");
    }
}
