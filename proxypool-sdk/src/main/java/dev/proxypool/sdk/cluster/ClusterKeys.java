package dev.proxypool.sdk.cluster;

import java.nio.charset.StandardCharsets;

/**
 * Redis names of snapshot distribution and the worker registry, all under the store's key prefix:
 * <pre>
 * &lt;prefix&gt;snapshot:full     hash   e = epoch, v = version, d = full frame ({@link SnapshotCodec})
 * &lt;prefix&gt;snapshot:deltas   stream entry id &lt;version&gt;-0, field d = delta or reset frame; last K kept
 * &lt;prefix&gt;snapshot:events   pub/sub channel, message "&lt;epoch&gt;:&lt;version&gt;" after each version
 * &lt;prefix&gt;snapshot:resync   string with TTL: a worker asks the control plane to rewrite the full
 * &lt;prefix&gt;workers           set of worker ids seen (an index; liveness is the keys below)
 * &lt;prefix&gt;workers:&lt;id&gt;      string with TTL per live worker (Redis expires it: receiver's clock)
 * </pre>
 */
record ClusterKeys(String prefix) {

    String full() {
        return prefix + "snapshot:full";
    }

    String deltas() {
        return prefix + "snapshot:deltas";
    }

    String events() {
        return prefix + "snapshot:events";
    }

    String resync() {
        return prefix + "snapshot:resync";
    }

    String workers() {
        return prefix + "workers";
    }

    String worker(String id) {
        return prefix + "workers:" + id;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
