package dev.proxypool.server.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.limits.RateLimiter;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.security.DestinationPolicy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.access.ServerAccess;
import dev.proxypool.server.access.UsernameParser;
import dev.proxypool.server.gateway.AttemptOutcome;
import dev.proxypool.server.gateway.GatewayErrors;
import dev.proxypool.server.gateway.HeaderLookup;
import dev.proxypool.server.gateway.RouteDecision;
import dev.proxypool.server.gateway.RouteRefusedException;
import dev.proxypool.server.gateway.RouteRequest;
import dev.proxypool.server.gateway.UpstreamAttempt;
import dev.proxypool.server.gateway.UpstreamDial;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An event loop routes with {@link PoolGatewayEngine#routeWithoutLookup}: the same checks and pick as
 * {@link PoolGatewayEngine#route}, but a destination name the gateway resolves itself
 * ({@code resolveDestinations}) is looked up by the attempt's dial, which says it may wait; the policy's
 * verdict on the looked-up addresses still refuses the request before anything is dialed.
 */
class RouteWithoutLookupTest {

    @TempDir
    Path dir;

    private final AtomicInteger lookups = new AtomicInteger();
    private ProxyPool pool;

    /** Test names: {@code private.test} → 10.0.0.7 (denied), {@code public.test} → 93.184.216.34, others unknown. */
    private InetAddress[] resolve(String name) throws UnknownHostException {
        lookups.incrementAndGet();
        return switch (name) {
            case "private.test" -> new InetAddress[] {InetAddress.getByAddress(name, new byte[] {10, 0, 0, 7})};
            case "public.test" ->
                new InetAddress[] {InetAddress.getByAddress(name, new byte[] {93, (byte) 184, (byte) 216, 34})};
            default -> throw new UnknownHostException(name);
        };
    }

    private PoolGatewayEngine engine(String proxyHost) throws Exception {
        return engine(proxyHost, "[{ name: lab }]");
    }

    private PoolGatewayEngine engine(String proxyHost, String routings) throws Exception {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                health: { active: { enabled: false } }
                routings: %s
                """.formatted(routings));
        Proxy proxy = Proxy.builder(new ProxyKey(Protocol.HTTP, proxyHost, 3128, CredentialRef.NONE))
                .upstream("lab")
                .maxConcurrency(10)
                .build();
        pool = ProxyPool.builder()
                .config(ConfigLoader.load(cfg, Map.of()))
                .proxies(List.of(proxy))
                .background(false)
                .build();
        DestinationPolicy policy =
                DestinationPolicy.builder().resolver(this::resolve).build();
        ServerAccess access = new ServerAccess(
                new RateLimiter(Map.of(), Clocks.monotonic()), policy, UsernameParser.forClients(List.of("alice")));
        return new PoolGatewayEngine(
                EmbeddedProxyPool.engineOf(pool), EmbeddedProxyPool.dialerOf(pool), access, p -> true);
    }

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
    }

    private static RouteRequest connect(String host) {
        return new RouteRequest("alice", host, 443, "CONNECT", true, HeaderLookup.NONE, 1, List.of());
    }

    @Test
    void aDeniedNameIsLookedUpByTheDialAndRefusedThereWithoutAHealthReport() throws Exception {
        PoolGatewayEngine engine = engine("127.0.0.1");
        UpstreamAttempt a = assertInstanceOf(UpstreamAttempt.class, engine.routeWithoutLookup(connect("private.test")));
        assertEquals(0, lookups.get(), "routing on a loop looks nothing up");
        assertTrue(a.dialBlocks(), "the dial has a name to look up: not on the loop");
        RouteRefusedException e = assertThrows(RouteRefusedException.class, a::dial);
        assertEquals(403, e.rejected().status());
        assertEquals(GatewayErrors.DESTINATION_DENIED, e.rejected().reason());
        assertEquals(1, lookups.get());
        a.complete(AttemptOutcome.ABANDONED);
        assertEquals(0, engine.inFlight(), "the capacity came back");

        // the blocking route decides the same, at once
        RouteDecision.Rejected r =
                assertInstanceOf(RouteDecision.Rejected.class, engine.route(connect("private.test")));
        assertEquals(403, r.status());
        assertEquals(0, engine.inFlight());
    }

    @Test
    void anAllowedNameIsDialedAfterItsLookupAndAnUnknownOneIsA502() throws Exception {
        PoolGatewayEngine engine = engine("127.0.0.1");
        UpstreamAttempt ok = assertInstanceOf(UpstreamAttempt.class, engine.routeWithoutLookup(connect("public.test")));
        UpstreamDial d = ok.dial();
        assertEquals(1, lookups.get());
        assertEquals("127.0.0.1", d.address().getAddress().getHostAddress());
        assertEquals(3128, d.address().getPort());
        assertEquals("93.184.216.34", ok.resolvedTarget().getHostAddress(), "the proxy is sent the checked address");
        ok.complete(AttemptOutcome.ABANDONED);

        UpstreamAttempt unknown =
                assertInstanceOf(UpstreamAttempt.class, engine.routeWithoutLookup(connect("nowhere.test")));
        RouteRefusedException e = assertThrows(RouteRefusedException.class, unknown::dial);
        assertEquals(502, e.rejected().status());
        unknown.complete(AttemptOutcome.ABANDONED);
        assertEquals(0, engine.inFlight());
    }

    @Test
    void anAddressNeedsNoLookupAndAProxyGivenByNameDoes() throws Exception {
        PoolGatewayEngine engine = engine("127.0.0.1");
        UpstreamAttempt a =
                assertInstanceOf(UpstreamAttempt.class, engine.routeWithoutLookup(connect("93.184.216.34")));
        assertFalse(a.dialBlocks(), "an address literal and a proxy given by address: the loop dials it");
        assertEquals("127.0.0.1", a.dial().address().getAddress().getHostAddress());
        assertEquals(0, lookups.get());
        a.complete(AttemptOutcome.ABANDONED);
        pool.close();

        PoolGatewayEngine byName = engine("localhost");
        UpstreamAttempt b =
                assertInstanceOf(UpstreamAttempt.class, byName.routeWithoutLookup(connect("93.184.216.34")));
        assertTrue(b.dialBlocks(), "the proxy's own name is looked up off the loop");
        b.complete(AttemptOutcome.ABANDONED);
    }

    /** Acquiring may park (a waiting routing, a sticky session's wait for its busy proxy): never on a loop. */
    @Test
    void aRoutingThatMayWaitIsLeftToTheBlockingRouteBeforeAnyCheckOrCount() throws Exception {
        PoolGatewayEngine waits = engine("127.0.0.1", "[{ name: lab, onNoCandidate: wait, waitTimeout: 2s }]");
        assertNull(waits.routeWithoutLookup(connect("93.184.216.34")), "a waiting routing: off the loop");
        assertEquals(0, waits.inFlight(), "nothing was acquired");
        UpstreamAttempt a = assertInstanceOf(UpstreamAttempt.class, waits.route(connect("93.184.216.34")));
        a.complete(AttemptOutcome.ABANDONED);
        pool.close();

        PoolGatewayEngine sticky = engine("127.0.0.1", "[{ name: lab, sticky: { enabled: true } }]");
        HeaderLookup session = name -> name.equalsIgnoreCase("X-ProxyPool-Session") ? "s1" : null;
        assertNull(
                sticky.routeWithoutLookup(
                        new RouteRequest("alice", "93.184.216.34", 443, "CONNECT", true, session, 1, List.of())),
                "a request naming a sticky session may wait for its busy proxy: off the loop");
        UpstreamAttempt plain =
                assertInstanceOf(UpstreamAttempt.class, sticky.routeWithoutLookup(connect("93.184.216.34")));
        plain.complete(AttemptOutcome.ABANDONED);
        assertEquals(0, sticky.inFlight());
    }

    @Test
    void onlyDottedQuadsAndIpv6AreAddressLiteralsForTheDial() {
        for (String literal :
                List.of("127.0.0.1", "0.0.0.0", "255.255.255.255", "::1", "2001:db8::7", "fe80::1%eth0")) {
            assertTrue(UpstreamDial.isAddressLiteral(literal), literal);
        }
        for (String name : List.of(
                "localhost",
                "proxy.example",
                "1.2.3",
                "1.2.3.4.5",
                "1.2.3.256",
                "1..2.3",
                "1.2.3.",
                ".1.2.3",
                "2130706433",
                "0x7f.0.0.1",
                "")) {
            assertFalse(UpstreamDial.isAddressLiteral(name), name);
        }
    }
}
