package dev.proxypool.server.nodes;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.PageRequest;
import dev.proxypool.core.extract.PoolQuery;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.ProxyPage;
import dev.proxypool.core.extract.PublishResult;
import dev.proxypool.core.extract.StoredProxy;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.AddressMask;
import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.nodes.NodeMembership;
import dev.proxypool.core.nodes.NodeSettings;
import dev.proxypool.core.runtime.ProxyRuntime;
import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

/**
 * Self-hosted proxy nodes (the ProxyNode "agents", docs/design.md#security X11): pre-issued registration tokens, the
 * short-lived credentials nodes exchange them for, heartbeats, and the pool membership that follows.
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li><b>Tokens</b> are issued by an operator ({@link #issueToken}), returned once and stored as
 *       SHA-256 digests (they are 256-bit random values, so a fast digest suffices; a lookup by
 *       digest leaks nothing usable about the token). {@link #revokeToken} removes every node
 *       registered with the token from the pool <em>at once</em>, not at the next sweep.</li>
 *   <li><b>Credentials</b>: {@link #register} exchanges a token for a random 32-byte secret
 *       (stored as its digest, compared in constant time) valid for
 *       {@link NodeSettings#credentialTtl()}, renewed by each {@link #heartbeat}.</li>
 *   <li><b>Liveness is the control plane's.</b> A node is alive while {@code now - lastHeartbeat <=
 *       livenessTimeout}, where both instants come from this registry's clock. Nothing a node
 *       sends (timestamps, sequence numbers) is trusted: a node with a skewed clock is judged the
 *       same as any other (docs/design.md#security, X11). A late heartbeat of a dead node is refused; the node
 *       registers again.</li>
 *   <li><b>Pool membership</b>: each live node is one {@link Proxy} of upstream and provider
 *       {@value #UPSTREAM}, id {@code ProxyIds.unsalted(key, "nodes")}, in
 *       {@code EmbeddedProxyPool.engineOf(pool).store()}; every change is applied with
 *       {@link PoolEngine#publish}, so it is in (or out of) the very next snapshot.
 *       {@link #sweep()} drops dead nodes and reconciles the store with the live set (orphans of
 *       a previous process removed, lost entries re-added). This registry owns the
 *       {@value #UPSTREAM} upstream: do not configure an upstream of that name.</li>
 *   <li>An address held by a live node of another token cannot be registered (409 at the API);
 *       the same token registering the same address again supersedes the old node (an agent
 *       restart). An address the pool already holds for a configured upstream, or that was
 *       extracted (tombstoned), is refused too.</li>
 * </ul>
 *
 * <p><b>Persistence</b> ({@link NodeStore}, docs/design.md#security X12): token digests and nodes
 * are written through to the store before a change is answered, so with {@link PostgresNodeStore}
 * they survive a control-plane restart: {@link #restore()} loads them, gives every restored node one
 * fresh liveness timeout from the restart (the control plane being down is not the node's missed
 * heartbeat) and keeps its credential's expiry, so the agent heartbeats on with the credential it
 * holds. With {@link NodeStore#NONE} (no configuration database) they live in memory: after a
 * restart tokens must be issued again and nodes register again (their proxies are removed by the
 * first sweep). Heartbeats and sweeps write best-effort: the store being down never stops liveness.
 *
 * <p>Thread-safe: one lock guards tokens and nodes; pool changes run under it so the store always
 * follows the registry's order of events. Registration and heartbeats are rare (seconds per node),
 * so a lock costs nothing that matters; {@link #sweep()} is O(nodes + stored node proxies).
 */
public final class NodeRegistry implements AutoCloseable {

    /** Upstream and provider name of node proxies. */
    public static final String UPSTREAM = "nodes";

    private static final System.Logger LOG = System.getLogger(NodeRegistry.class.getName());
    private static final int CLOSE_WAIT_SECONDS = 10;
    /** How often a node that failed its first check is looked at again (checked once its cooldown is over). */
    private static final Duration RECHECK_EVERY = Duration.ofSeconds(1);

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private final ProxyPool pool;
    private final InstantSource clock;
    private final NodeSettings settings;
    private final NodeStore nodeStore;
    private final ReentrantLock lock = new ReentrantLock();
    /** token digest (base64) → token name */
    private final Map<String, String> tokensByDigest = new HashMap<>();
    /** token name → token digest (base64) */
    private final Map<String, String> tokensByName = new TreeMap<>();

    private final Map<String, Node> nodes = new HashMap<>();
    /** The first check of a newly registered node; null: none (it serves at once, as embedded tests want). */
    private volatile FirstCheck firstCheck;
    /**
     * Proxy ids of nodes that have not passed a check yet (design H10b): kept out of published
     * snapshots, so workers never learn them before they worked once. Added inside the publication
     * that adds the node, left when the node's health is {@code HEALTHY} (a check passed) or the node left.
     */
    private final Set<String> unchecked = ConcurrentHashMap.newKeySet();

    private BackgroundTasks tasks; // guarded by this
    private volatile BackgroundTasks.Task sweeper;
    /** Set by {@link #close()}: a sweep that fails from now on is the store closing under it, not news. */
    private volatile boolean closing;

    /**
     * @param pool     the pool node proxies join
     * @param clock    the control plane's clock: the only judge of liveness and expiry
     * @param settings timing
     */
    public NodeRegistry(ProxyPool pool, InstantSource clock, NodeSettings settings) {
        this(pool, clock, settings, NodeStore.NONE);
    }

    /**
     * @param store where tokens and nodes are kept across restarts; call {@link #restore()} to load them
     */
    public NodeRegistry(ProxyPool pool, InstantSource clock, NodeSettings settings, NodeStore store) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.nodeStore = Objects.requireNonNull(store, "store");
    }

    /**
     * Loads the store's tokens and nodes (replacing nothing already registered) and reconciles the
     * pool with them ({@link #sweep()}). Each restored node is alive for one
     * {@link NodeSettings#livenessTimeout()} from now and keeps its stored credential expiry.
     *
     * @return this registry
     */
    public NodeRegistry restore() {
        List<NodeStore.TokenRow> tokens = nodeStore.tokens();
        List<NodeStore.NodeRow> rows = nodeStore.nodes();
        lock.lock();
        try {
            Instant now = clock.instant();
            for (NodeStore.TokenRow t : tokens) {
                tokensByName.putIfAbsent(t.name(), t.digest());
                tokensByDigest.putIfAbsent(t.digest(), t.name());
            }
            for (NodeStore.NodeRow r : rows) {
                if (!tokensByName.containsKey(r.tokenName()) || nodes.containsKey(r.nodeId())) {
                    continue;
                }
                Node node = new Node(
                        r.nodeId(), r.tokenName(), r.advert(), proxyOf(r.advert()), r.secretDigest(), r.registeredAt());
                node.standing = new NodeMembership.Standing(now, r.credentialExpiresAt());
                nodes.put(r.nodeId(), node);
            }
            LOG.log(
                    System.Logger.Level.INFO,
                    "node registry restored: {0} token(s), {1} node(s)",
                    tokensByName.size(),
                    nodes.size());
        } finally {
            lock.unlock();
        }
        sweep();
        return this;
    }

    /** Whether tokens and nodes survive a restart (a persistent {@link NodeStore}). */
    public boolean persistent() {
        return nodeStore.persistent();
    }

    public NodeSettings settings() {
        return settings;
    }

    /**
     * Issues a registration token named {@code name} ({@code [A-Za-z0-9._-]{1,64}}).
     *
     * @return the token, the only time its plain value is available
     * @throws IllegalArgumentException for a bad name
     * @throws IllegalStateException    when a token of that name exists (revoke it first)
     */
    public IssuedToken issueToken(String name) {
        if (name == null || !name.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("name '" + name + "' must be 1 to 64 of A-Z a-z 0-9 . _ -");
        }
        String token = randomSecret();
        lock.lock();
        try {
            if (tokensByName.containsKey(name)) {
                throw new IllegalStateException("a token named '" + name + "' exists; revoke it first");
            }
            String digest = digest(token);
            nodeStore.saveToken(new NodeStore.TokenRow(name, digest));
            tokensByName.put(name, digest);
            tokensByDigest.put(digest, name);
        } finally {
            lock.unlock();
        }
        LOG.log(System.Logger.Level.INFO, "node registration token ''{0}'' issued", name);
        return new IssuedToken(name, token);
    }

    /**
     * Revokes the token {@code name}: it registers nothing more, and every node registered with it
     * leaves the pool now (the next snapshot no longer has it).
     *
     * @return whether such a token existed
     */
    public boolean revokeToken(String name) {
        lock.lock();
        try {
            String digest = tokensByName.get(name);
            if (digest == null) {
                return false;
            }
            nodeStore.deleteToken(name);
            tokensByName.remove(name);
            tokensByDigest.remove(digest);
            List<String> gone = new ArrayList<>();
            for (Iterator<Node> it = nodes.values().iterator(); it.hasNext(); ) {
                Node n = it.next();
                if (n.tokenName.equals(name)) {
                    gone.add(n.proxy.id());
                    it.remove();
                }
            }
            if (!gone.isEmpty()) {
                removeFromPool(gone);
            }
            LOG.log(
                    System.Logger.Level.INFO,
                    "node registration token ''{0}'' revoked; {1} node(s) removed",
                    name,
                    gone.size());
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Names of the tokens in force, sorted. */
    public List<String> tokenNames() {
        lock.lock();
        try {
            return List.copyOf(tokensByName.keySet());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Checks every node that registers from now on before it serves (docs/design.md H10b): it joins
     * the pool as {@code PROBE_ALLOWED} with the permit held by this check, so no client request
     * reaches it until the check succeeded; a failed check cools it like a failed probe.
     *
     * @return this registry
     */
    public NodeRegistry checkNewNodes(FirstCheck check) {
        this.firstCheck = Objects.requireNonNull(check, "check");
        return this;
    }

    /**
     * Exchanges a registration token for a credential and adds the node to the pool.
     *
     * @return the credential, or empty when {@code token} is unknown or revoked
     * @throws IllegalStateException when the address is held by another token's live node, by a
     *                               configured upstream, or was extracted
     */
    public Optional<NodeCredential> register(String token, NodeAdvert advert) {
        Objects.requireNonNull(advert, "advert");
        if (token == null || token.isEmpty()) {
            return Optional.empty();
        }
        Proxy proxy = proxyOf(advert);
        String tokenDigest = digest(token);
        lock.lock();
        try {
            String tokenName = tokensByDigest.get(tokenDigest);
            if (tokenName == null) {
                return Optional.empty();
            }
            Instant now = clock.instant();
            Node previous = null;
            for (Node n : nodes.values()) {
                if (n.proxy.id().equals(proxy.id())) {
                    if (NodeMembership.claim(tokenName, n.tokenName, n.standing, now, settings)
                            == NodeMembership.Claim.CONFLICT) {
                        throw new IllegalStateException("host/port " + AddressMask.mask(advert.host()) + ":"
                                + advert.port() + " is registered by a node of another token");
                    }
                    previous = n;
                    break;
                }
            }
            PoolStore store = EmbeddedProxyPool.engineOf(pool).store();
            FirstCheck check = firstCheck;
            ProxyHealth[] hold = new ProxyHealth[1];
            // held inside the publication: under the engine's lock no other rebuild can drop the runtime first
            PublishResult r = EmbeddedProxyPool.engineOf(pool).publish(() -> {
                hold[0] = check == null ? null : holdForFirstCheck(proxy);
                if (hold[0] != null) {
                    unchecked.add(proxy.id()); // before the snapshot a control plane could publish
                }
                return store.upsert(List.of(proxy), now);
            });
            ProxyHealth held = hold[0];
            if (r.added() + r.refreshed() == 0) {
                throw new IllegalStateException(
                        r.skippedTombstoned() > 0
                                ? "host/port was extracted from the pool and cannot rejoin until its tombstone expires"
                                : "host/port is already in the pool through a configured upstream");
            }
            String secret = randomSecret();
            String nodeId = "n-" + B64.encodeToString(randomBytes(12));
            Node node = new Node(nodeId, tokenName, advert, proxy, digestBytes(secret), now);
            node.renew(now, settings);
            try {
                nodeStore.saveNode(node.row(), previous == null ? null : previous.nodeId);
            } catch (RuntimeException e) {
                // not kept: the pool goes back to what it was, the caller sees the store's failure
                Proxy before = previous == null ? null : previous.proxy;
                EmbeddedProxyPool.engineOf(pool)
                        .publish(() ->
                                before == null ? removed(store(), proxy.id()) : store().upsert(List.of(before), now));
                throw e;
            }
            if (previous != null) {
                nodes.remove(previous.nodeId);
            }
            nodes.put(nodeId, node);
            LOG.log(
                    System.Logger.Level.INFO,
                    "node {0} registered with token ''{1}'': {2}",
                    nodeId,
                    tokenName,
                    proxy.key());
            if (held != null) {
                Thread.ofVirtual().name("proxypool-node-check").start(() -> firstCheck(check, proxy, held, nodeId));
            }
            return Optional.of(new NodeCredential(nodeId, secret, node.standing.credentialExpiresAt()));
        } finally {
            lock.unlock();
        }
    }

    /**
     * A heartbeat of {@code nodeId} carrying {@code secret}: renews liveness and the credential.
     * Nothing the node claims about time is consulted.
     *
     * @return the credential's new expiry, or empty when the node is unknown, the secret wrong, the
     *         credential lapsed or the node already dead (it must register again)
     */
    public Optional<Instant> heartbeat(String nodeId, String secret) {
        byte[] presented = presented(nodeId, secret);
        if (presented == null) {
            return Optional.empty();
        }
        NodeMembership.Standing renewed;
        lock.lock();
        try {
            Node node = holder(nodeId, presented);
            if (node == null) {
                return Optional.empty();
            }
            Instant now = clock.instant();
            if (!node.standing.acceptsHeartbeat(now, settings)) {
                nodes.remove(nodeId);
                forget(List.of(nodeId));
                removeFromPool(List.of(node.proxy.id()));
                LOG.log(System.Logger.Level.INFO, "node {0} heartbeat came too late; removed", nodeId);
                return Optional.empty();
            }
            node.renew(now, settings);
            renewed = node.standing;
        } finally {
            lock.unlock();
        }
        try {
            nodeStore.heartbeat(nodeId, renewed.lastHeartbeat(), renewed.credentialExpiresAt());
        } catch (RuntimeException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "node {0}: heartbeat not stored (liveness unaffected): {1}",
                    nodeId,
                    e.getMessage());
        }
        return Optional.of(renewed.credentialExpiresAt());
    }

    /**
     * A node leaving on its own ({@code DELETE /v1/nodes/{id}} with its credential).
     *
     * @return whether the node existed and the secret matched
     */
    public boolean deregister(String nodeId, String secret) {
        byte[] presented = presented(nodeId, secret);
        if (presented == null) {
            return false;
        }
        lock.lock();
        try {
            Node node = holder(nodeId, presented);
            if (node == null) {
                return false;
            }
            nodeStore.deleteNode(nodeId);
            nodes.remove(nodeId);
            removeFromPool(List.of(node.proxy.id()));
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Drops nodes dead at the registry's clock and reconciles the store's {@value #UPSTREAM}
     * proxies with the live set; refreshes the snapshot when anything changed.
     *
     * @return how many nodes were found dead
     */
    public int sweep() {
        lock.lock();
        try {
            Instant now = clock.instant();
            List<String> remove = new ArrayList<>();
            List<String> deadIds = new ArrayList<>();
            int dead = 0;
            for (Iterator<Node> it = nodes.values().iterator(); it.hasNext(); ) {
                Node n = it.next();
                if (!n.standing.alive(now, settings)) {
                    it.remove();
                    remove.add(n.proxy.id());
                    deadIds.add(n.nodeId);
                    dead++;
                    LOG.log(System.Logger.Level.INFO, "node {0} missed its heartbeats; removed", n.nodeId);
                }
            }
            Map<String, Proxy> live = new HashMap<>();
            for (Node n : nodes.values()) {
                live.put(n.proxy.id(), n.proxy);
            }
            NodeMembership.Reconciliation plan = NodeMembership.reconcile(remove, live.keySet(), storedNodeProxies());
            List<Proxy> missing = plan.add().stream().map(live::get).toList();
            if (!plan.isEmpty()) {
                PoolStore store = EmbeddedProxyPool.engineOf(pool).store();
                EmbeddedProxyPool.engineOf(pool).publish(() -> {
                    if (!plan.remove().isEmpty()) {
                        store.remove(plan.remove());
                    }
                    return missing.isEmpty() ? PublishResult.NONE : store.upsert(missing, now);
                });
            }
            forget(deadIds);
            return dead;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes the node's proxy out of service before it is published (its runtime is created here,
     * the snapshot built by the publication takes it over), so not even the first snapshot offers
     * it to a request; null when it was already judged (not HEALTHY: cooling, disabled).
     */
    private ProxyHealth holdForFirstCheck(Proxy proxy) {
        PoolEngine engine = EmbeddedProxyPool.engineOf(pool);
        ProxyHealth health = engine.registry().runtimeFor(proxy).health();
        return health.awaitFirstCheck(engine.ticker().read()) ? health : null;
    }

    /** Runs the first check and reports it as the holder of the permit. */
    private void firstCheck(FirstCheck check, Proxy proxy, ProxyHealth health, String nodeId) {
        PoolEngine engine = EmbeddedProxyPool.engineOf(pool);
        FirstCheck.Outcome outcome;
        try {
            outcome = check.run(proxy);
        } catch (RuntimeException e) {
            outcome = new FirstCheck.Outcome(Optional.of(FailureKind.UPSTREAM_UNREACHABLE), Duration.ZERO);
        }
        long now = engine.ticker().read();
        if (outcome.failure().isEmpty()) {
            health.recordActiveSuccess(Admission.PROBE, outcome.latency().toNanos(), now);
            LOG.log(System.Logger.Level.INFO, "node {0} passed its check; it serves", nodeId);
        } else {
            health.recordActiveFailure(Admission.PROBE, outcome.failure().get(), now);
            LOG.log(
                    System.Logger.Level.WARNING,
                    "node {0} failed its check ({1}); cooling, it serves after a successful probe",
                    nodeId,
                    outcome.failure().get().name());
        }
    }

    /**
     * The proxy ids of nodes that have not passed a check yet, which a control plane leaves out of
     * the snapshots it publishes (design H10b): a worker builds every proxy it learns as healthy, so
     * it must not learn one nobody has seen working. A node leaves this set for good the first time
     * its health is {@code HEALTHY} (its first check, or a later one after a failed first check);
     * what happens to it afterwards the workers judge on their own, like any proxy.
     *
     * @return the ids held back now (a copy)
     */
    public Set<String> withheldFromPublication() {
        if (unchecked.isEmpty()) {
            return Set.of();
        }
        PoolEngine engine = EmbeddedProxyPool.engineOf(pool);
        unchecked.removeIf(id -> engine.runtime(id)
                .map(r -> r.health().state() == HealthState.HEALTHY)
                .orElse(false));
        return Set.copyOf(unchecked);
    }

    /**
     * Checks again each node whose first check failed, once its cooldown is over (the recovery
     * permit of H7, taken as the background prober): a control plane serves no requests, so
     * without this a node that was down when it registered would never reach the workers.
     */
    private void recheckFailedNodes() {
        FirstCheck check = firstCheck;
        if (check == null || unchecked.isEmpty()) {
            return;
        }
        PoolEngine engine = EmbeddedProxyPool.engineOf(pool);
        for (String id : List.copyOf(unchecked)) {
            Node node = liveNodeOf(id);
            if (node == null) {
                unchecked.remove(id); // the node left (or never got in): nothing to hold
                continue;
            }
            Optional<ProxyRuntime> runtime = engine.runtime(id);
            if (runtime.isEmpty()) {
                continue;
            }
            ProxyHealth health = runtime.get().health();
            Admission a = health.tryAdmitActiveProbe(engine.ticker().read());
            if (a == Admission.ADMITTED) {
                unchecked.remove(id); // HEALTHY: a check passed
            } else if (a == Admission.PROBE) {
                Thread.ofVirtual()
                        .name("proxypool-node-check")
                        .start(() -> firstCheck(check, node.proxy, health, node.nodeId));
            }
        }
    }

    private Node liveNodeOf(String proxyId) {
        lock.lock();
        try {
            for (Node n : nodes.values()) {
                if (n.proxy.id().equals(proxyId)) {
                    return n;
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    /** Deletes dropped nodes from the store, best-effort (a restored dead node is dropped again by a sweep). */
    private void forget(List<String> nodeIds) {
        for (String id : nodeIds) {
            try {
                nodeStore.deleteNode(id);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "node {0}: removal not stored: {1}", id, e.getMessage());
            }
        }
    }

    /**
     * Changes what a node may change of its advert: labels, concurrency, weight, metadata (the
     * address and protocol stay; a node that moves registers again). The pool follows at once (the
     * next snapshot has the new labels and weight).
     *
     * @param change the advert's new values, built from the current one
     * @return the node as changed, or empty when no such node is registered
     * @throws IllegalArgumentException from {@code change} for a bad value
     */
    public Optional<NodeView> update(String nodeId, UnaryOperator<NodeAdvert> change) {
        lock.lock();
        try {
            Node node = nodes.get(nodeId);
            if (node == null) {
                return Optional.empty();
            }
            NodeAdvert next = change.apply(node.advert);
            Proxy proxy = proxyOf(next);
            Instant now = clock.instant();
            NodeStore.NodeRow row = new NodeStore.NodeRow(
                    node.nodeId,
                    node.tokenName,
                    next,
                    node.secretDigest,
                    node.registeredAt,
                    node.standing.lastHeartbeat(),
                    node.standing.credentialExpiresAt());
            nodeStore.saveNode(row, null);
            EmbeddedProxyPool.engineOf(pool).publish(() -> store().upsert(List.of(proxy), now));
            node.advert = next;
            node.proxy = proxy;
            LOG.log(
                    System.Logger.Level.INFO,
                    "node {0} updated: labels {1}, weight {2}, maxConcurrency {3}",
                    nodeId,
                    next.labels(),
                    next.weight(),
                    next.maxConcurrency());
            return Optional.of(node.view());
        } finally {
            lock.unlock();
        }
    }

    /** One registered node, or empty. */
    public Optional<NodeView> node(String nodeId) {
        lock.lock();
        try {
            return Optional.ofNullable(nodes.get(nodeId)).map(Node::view);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether {@code secret} is node {@code nodeId}'s current credential (constant-time), and the
     * credential has not lapsed.
     */
    public boolean holdsCredential(String nodeId, String secret) {
        byte[] presented = presented(nodeId, secret);
        if (presented == null) {
            return false;
        }
        lock.lock();
        try {
            Node node = holder(nodeId, presented);
            return node != null && clock.instant().isBefore(node.standing.credentialExpiresAt());
        } finally {
            lock.unlock();
        }
    }

    /** The live runtime (health, capacity) of node {@code nodeId}'s proxy in this process, or empty. */
    public Optional<ProxyRuntime> runtime(String nodeId) {
        Optional<NodeView> n = node(nodeId);
        return n.flatMap(v -> EmbeddedProxyPool.engineOf(pool).runtime(v.proxyId()));
    }

    /** The registry's (the control plane's) clock now. */
    Instant now() {
        return clock.instant();
    }

    /** The pool engine's ticker now (the time base of health statuses). */
    long ticker() {
        return EmbeddedProxyPool.engineOf(pool).ticker().read();
    }

    /** The digest of a presented credential, or null when the call names no node or carries no secret. */
    private static byte[] presented(String nodeId, String secret) {
        return nodeId == null || secret == null || secret.isEmpty() ? null : digestBytes(secret);
    }

    /** Under the lock: node {@code nodeId} when its credential's digest is {@code presented} (constant time), else null. */
    private Node holder(String nodeId, byte[] presented) {
        Node node = nodes.get(nodeId);
        return node != null && MessageDigest.isEqual(presented, node.secretDigest) ? node : null;
    }

    private static Proxy proxyOf(NodeAdvert advert) {
        return Proxy.builder(advert.key())
                .provider(UPSTREAM)
                .upstream(UPSTREAM)
                .labels(advert.labels())
                .maxConcurrency(advert.maxConcurrency())
                .weight(advert.weight())
                .build();
    }

    private PoolStore store() {
        return EmbeddedProxyPool.engineOf(pool).store();
    }

    private static PublishResult removed(PoolStore s, String proxyId) {
        s.remove(List.of(proxyId));
        return PublishResult.NONE;
    }

    /** The registered nodes (live until the next sweep says otherwise), without credentials. */
    public List<NodeView> nodes() {
        lock.lock();
        try {
            List<NodeView> out = new ArrayList<>(nodes.size());
            for (Node n : nodes.values()) {
                out.add(n.view());
            }
            out.sort((a, b) -> a.nodeId().compareTo(b.nodeId()));
            return out;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Starts a background task ({@link BackgroundTasks}, thread {@code node-sweeper}) calling
     * {@link #sweep()} every {@link NodeSettings#sweepInterval()} and one ({@code node-rechecker})
     * checking again, once their cooldown is over, the nodes whose first check failed (every
     * second), until {@link #close()}. Idempotent.
     */
    public synchronized NodeRegistry startSweeping() {
        if (tasks == null) {
            tasks = BackgroundTasks.of("node registry", Duration.ofSeconds(CLOSE_WAIT_SECONDS));
            sweeper = tasks.every("node-sweeper", settings.sweepInterval(), () -> unlessClosing(this::sweep));
            tasks.every("node-rechecker", RECHECK_EVERY, () -> unlessClosing(this::recheckFailedNodes));
        }
        return this;
    }

    /** Runs {@code work}; a failure while closing is expected (the pool store closes after us), not logged. */
    private void unlessClosing(Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            if (!closing) {
                throw e;
            }
        }
    }

    /**
     * Stops the sweeper and waits (up to {@value #CLOSE_WAIT_SECONDS} s) for a sweep in progress to
     * end, so none runs on after the pool store it writes to is closed. Node proxies stay in the
     * store until the next process's first sweep.
     */
    @Override
    public synchronized void close() {
        closing = true;
        BackgroundTasks t = tasks;
        tasks = null;
        if (t != null) {
            t.close();
        }
    }

    /**
     * Whether the background sweeper runs (tests).
     *
     * @return true between {@link #startSweeping()} and the end of {@link #close()}
     */
    boolean sweeping() {
        BackgroundTasks.Task t = sweeper;
        return t != null && t.running();
    }

    private Set<String> storedNodeProxies() {
        PoolStore store = EmbeddedProxyPool.engineOf(pool).store();
        ExtractionFilter filter = new ExtractionFilter(Optional.empty(), Optional.of(UPSTREAM), LabelSelector.ANY);
        PoolQuery query = new PoolQuery(filter, Optional.empty());
        Set<String> ids = new HashSet<>();
        String cursor = PageRequest.FIRST;
        do {
            ProxyPage page = store.list(query, new PageRequest(cursor, PageRequest.MAX_LIMIT));
            for (StoredProxy sp : page.proxies()) {
                ids.add(sp.proxy().id());
            }
            cursor = page.nextCursor();
        } while (cursor != null && !cursor.isEmpty());
        return ids;
    }

    private void removeFromPool(List<String> proxyIds) {
        PoolStore store = EmbeddedProxyPool.engineOf(pool).store();
        EmbeddedProxyPool.engineOf(pool).publish(() -> store.remove(proxyIds));
    }

    private static String randomSecret() {
        return B64.encodeToString(randomBytes(32));
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    private static String digest(String secret) {
        return Base64.getEncoder().encodeToString(digestBytes(secret));
    }

    private static byte[] digestBytes(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    /** One registered node; mutable fields are guarded by the registry's lock. */
    private static final class Node {
        final String nodeId;
        final String tokenName;
        NodeAdvert advert;
        Proxy proxy;
        final byte[] secretDigest;
        final Instant registeredAt;
        NodeMembership.Standing standing;

        Node(String nodeId, String tokenName, NodeAdvert advert, Proxy proxy, byte[] secretDigest, Instant now) {
            this.nodeId = nodeId;
            this.tokenName = tokenName;
            this.advert = advert;
            this.proxy = proxy;
            this.secretDigest = secretDigest;
            this.registeredAt = now;
        }

        void renew(Instant now, NodeSettings s) {
            standing = NodeMembership.Standing.renewed(now, s);
        }

        NodeView view() {
            return new NodeView(
                    nodeId,
                    tokenName,
                    proxy.id(),
                    advert.protocol(),
                    advert.host(),
                    advert.port(),
                    advert.labels(),
                    advert.maxConcurrency(),
                    advert.weight(),
                    advert.metadata(),
                    registeredAt,
                    standing.lastHeartbeat(),
                    standing.credentialExpiresAt());
        }

        NodeStore.NodeRow row() {
            return new NodeStore.NodeRow(
                    nodeId,
                    tokenName,
                    advert,
                    secretDigest,
                    registeredAt,
                    standing.lastHeartbeat(),
                    standing.credentialExpiresAt());
        }

        @Override
        public String toString() {
            return "Node[" + nodeId + " " + proxy.key() + " token=" + tokenName + "]";
        }
    }
}
