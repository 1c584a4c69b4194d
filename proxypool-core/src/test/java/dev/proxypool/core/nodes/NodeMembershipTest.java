package dev.proxypool.core.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.nodes.NodeMembership.Claim;
import dev.proxypool.core.nodes.NodeMembership.Reconciliation;
import dev.proxypool.core.nodes.NodeMembership.Standing;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NodeMembershipTest {

    private static final NodeSettings S = new NodeSettings(
            Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofSeconds(2));
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aNodeIsAliveUpToTheLivenessTimeoutInclusive() {
        Standing st = Standing.renewed(T0, S);
        assertEquals(T0, st.lastHeartbeat());
        assertEquals(T0.plus(S.credentialTtl()), st.credentialExpiresAt());
        assertTrue(st.alive(T0.plusSeconds(30), S));
        assertFalse(st.alive(T0.plusSeconds(30).plusNanos(1), S));
    }

    @Test
    void aHeartbeatNeedsALiveNodeAndAValidCredential() {
        Standing st = Standing.renewed(T0, S);
        assertTrue(st.acceptsHeartbeat(T0.plusSeconds(29), S));
        assertFalse(st.acceptsHeartbeat(T0.plusSeconds(31), S), "dead: it registers again");
        Standing lapsing = new Standing(T0.plusSeconds(50), T0.plus(S.credentialTtl()));
        assertTrue(lapsing.alive(T0.plus(S.credentialTtl()), S));
        assertFalse(lapsing.acceptsHeartbeat(T0.plus(S.credentialTtl()), S), "alive, but the credential lapsed");
    }

    @Test
    void onlyALiveNodeOfAnotherTokenHoldsAnAddressAgainstAClaim() {
        Standing live = Standing.renewed(T0, S);
        Instant soon = T0.plusSeconds(5);
        Instant late = T0.plusSeconds(31);
        assertEquals(Claim.NEW, NodeMembership.claim("a", null, null, soon, S));
        assertEquals(Claim.CONFLICT, NodeMembership.claim("a", "b", live, soon, S));
        assertEquals(Claim.SUPERSEDE, NodeMembership.claim("a", "a", live, soon, S), "an agent restart");
        assertEquals(Claim.SUPERSEDE, NodeMembership.claim("a", "b", live, late, S), "the holder is dead");
    }

    @Test
    void reconcilingMakesTheStoreHoldExactlyTheLiveNodes() {
        Reconciliation r =
                NodeMembership.reconcile(List.of("dead"), Set.of("p1", "p2"), Set.of("p1", "orphan", "dead"));
        assertEquals(List.of("dead", "orphan"), r.remove());
        assertEquals(List.of("p2"), r.add());
        assertFalse(r.isEmpty());
        assertTrue(
                NodeMembership.reconcile(List.of(), Set.of("p1"), Set.of("p1")).isEmpty());
    }
}
