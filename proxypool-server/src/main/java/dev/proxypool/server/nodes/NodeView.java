package dev.proxypool.server.nodes;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import java.time.Instant;
import java.util.Map;

/**
 * What an operator may see of a registered node: never its credential nor its token, only the
 * token's name.
 *
 * @param nodeId              the node's id
 * @param tokenName           the registration token it registered with
 * @param proxyId             its id in the pool (upstream {@value NodeRegistry#UPSTREAM})
 * @param protocol            the protocol it speaks
 * @param host                its advertised host
 * @param port                its advertised port
 * @param labels              its labels
 * @param maxConcurrency      its advertised concurrency
 * @param weight              its selection weight
 * @param metadata            its free metadata
 * @param registeredAt        when it registered (control-plane clock)
 * @param lastHeartbeat       its last heartbeat (control-plane clock)
 * @param credentialExpiresAt when its credential lapses without another heartbeat
 */
public record NodeView(
        String nodeId,
        String tokenName,
        String proxyId,
        Protocol protocol,
        String host,
        int port,
        Labels labels,
        int maxConcurrency,
        int weight,
        Map<String, String> metadata,
        Instant registeredAt,
        Instant lastHeartbeat,
        Instant credentialExpiresAt) {}
