package dev.proxypool.sdk.coordination;

import java.nio.charset.StandardCharsets;

/**
 * Redis names of snapshot distribution, the worker registry and the control-plane lease, all
 * under the store's key prefix. On one Redis node ({@code store.type: redis}) the names are
 * {@code <prefix><name>}; on a Redis Cluster ({@code store.type: redis-cluster}) every name carries
 * the hash tag {@code {<prefix>cluster}} ({@code {<prefix>cluster}:<name>}), so all of them live in
 * one slot and each script's keys are on one master:
 * <pre>
 * snapshot:full     hash   e = epoch, v = version, d = full frame ({@link SnapshotCodec}),
 *                          f = fencing token of the control plane that wrote the head
 * snapshot:deltas   stream entry id &lt;version&gt;-0, field d = delta or reset frame; last K kept
 * snapshot:events   pub/sub channel, message "&lt;epoch&gt;:&lt;version&gt;" after each version
 * snapshot:resync   string with TTL: a worker asks the control plane to rewrite the full
 * workers           set of worker ids seen (an index; liveness is the keys below)
 * workers:&lt;id&gt;      string with TTL per live worker (Redis expires it: receiver's clock)
 * control:lease     string with TTL "&lt;token&gt; &lt;holder&gt;": the active control plane ({@link ControlLeadership})
 * control:fence     counter: the last fencing token issued (never expires)
 * sequential        hash   routing name = its sequential position ({@link SharedSequentialStates})
 * </pre>
 *
 * @param prefix the store's key prefix
 * @param tagged true on a Redis Cluster: every name in the slot of {@code {<prefix>cluster}}
 */
record CoordinationKeys(String prefix, boolean tagged) {

    CoordinationKeys(String prefix) {
        this(prefix, false);
    }

    private String name(String rest) {
        return tagged ? "{" + prefix + "cluster}:" + rest : prefix + rest;
    }

    String full() {
        return name("snapshot:full");
    }

    String deltas() {
        return name("snapshot:deltas");
    }

    String events() {
        return name("snapshot:events");
    }

    String resync() {
        return name("snapshot:resync");
    }

    String workers() {
        return name("workers");
    }

    String worker(String id) {
        return name("workers:" + id);
    }

    String lease() {
        return name("control:lease");
    }

    String fence() {
        return name("control:fence");
    }

    String sequential() {
        return name("sequential");
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
