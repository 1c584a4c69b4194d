package dev.proxypool.core.extract;

import static dev.proxypool.core.extract.ProxyFixtures.builder;
import static dev.proxypool.core.extract.ProxyFixtures.extractedIds;
import static dev.proxypool.core.extract.ProxyFixtures.listAll;
import static dev.proxypool.core.extract.ProxyFixtures.proxy;
import static dev.proxypool.core.extract.ProxyFixtures.rich;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Publishing: add, refresh, and what is skipped (expired, duplicate key); tombstones are in {@link LifecycleContract}. */
public interface PublishContract extends StoreUnderTest {

    @Test
    default void publishAddsAvailableProxiesWithTheirWholeRecord() {
        Proxy a = rich(1);
        Proxy b = proxy(2);
        assertEquals(new PublishResult(2, 0, 0, 0, 0), publish(a, b));
        assertEquals(Optional.of(new StoredProxy(a, ProxyState.AVAILABLE, Optional.empty())), store().get(a.id()));
        assertEquals(Optional.of(new StoredProxy(b, ProxyState.AVAILABLE, Optional.empty())), store().get(b.id()));
        assertEquals(Optional.empty(), store().get("p-unknown"));
    }

    @Test
    default void republishRefreshesTheRecordAndKeepsStateAndCheck() {
        Proxy first = builder(1).expiresAt(now().plus(Duration.ofHours(1))).build();
        publish(first);
        store().setDisabled(first.id(), true);
        store().markChecked(first.id(), now());
        Proxy later = first.toBuilder()
                .expiresAt(now().plus(Duration.ofHours(2)))
                .weight(5)
                .build();

        assertEquals(new PublishResult(0, 1, 0, 0, 0), publish(later));
        assertEquals(
                Optional.of(new StoredProxy(later, ProxyState.DISABLED, Optional.of(now()))), store().get(first.id()));
    }

    @Test
    default void republishWithNewLabelsMovesTheProxyBetweenFilters() {
        publish(builder(1).labels(Labels.of("country", "US")).build());
        publish(builder(1).labels(Labels.of("country", "DE")).build());
        ExtractionFilter us = ExtractionFilter.builder().country("US").build();
        ExtractionFilter de = ExtractionFilter.builder().country("DE").build();

        assertEquals(
                Set.of(),
                extractedIds(extract(ExtractionRequest.builder(10).filter(us).build())));
        assertEquals(
                Set.of(proxy(1).id()),
                extractedIds(extract(ExtractionRequest.builder(10).filter(de).build())));
    }

    @Test
    default void republishInTheSameBatchCountsAsARefresh() {
        assertEquals(new PublishResult(1, 1, 0, 0, 0), publish(proxy(1), proxy(1)));
        assertEquals(1, store().available(ProxyFixtures.UPSTREAM));
    }

    @Test
    default void publishSkipsProxiesAlreadyExpired() {
        Proxy atNow = builder(1).expiresAt(now()).build();
        Proxy past = builder(2).expiresAt(now().minusSeconds(1)).build();
        Proxy alive = builder(3).expiresAt(now().plusSeconds(60)).build();

        assertEquals(new PublishResult(1, 0, 0, 2, 0), publish(atNow, past, alive));
        assertEquals(Optional.empty(), store().get(atNow.id()));
        assertEquals(Optional.empty(), store().get(past.id()));
    }

    @Test
    default void sameProxyListedByAnotherUpstreamIsHeldOnce() {
        Proxy viaA = proxy(1);
        Proxy viaB = builder(1).upstream("up-b").build();
        assertTrue(!viaA.id().equals(viaB.id()) && viaA.key().equals(viaB.key()));

        assertEquals(new PublishResult(1, 0, 0, 0, 1), publish(viaA, viaB));
        assertEquals(new PublishResult(0, 0, 0, 0, 1), publish(viaB));
        assertEquals(Optional.empty(), store().get(viaB.id()));
        assertEquals(0, store().available("up-b"));
        assertEquals(
                Set.of(viaA.id()),
                extractedIds(extract(ExtractionRequest.builder(10).build())));
    }

    @Test
    default void publishOfOneUpstreamRefusesAProxyOfAnother() {
        Proxy foreign = builder(2).upstream("up-b").build();
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> store().publish(ProxyFixtures.UPSTREAM, List.of(proxy(1), foreign), now()));
        assertTrue(e.getMessage().contains(foreign.id()) && e.getMessage().contains("up-b"), e.getMessage());
        assertEquals(List.of(), listAll(store()));
    }

    @Test
    default void publishNeverRemovesProxiesItDoesNotList() {
        publish(proxy(1), proxy(2));
        assertEquals(
                new PublishResult(0, 1, 0, 0, 0), store().publish(ProxyFixtures.UPSTREAM, List.of(proxy(1)), now()));
        assertEquals(2, store().available(ProxyFixtures.UPSTREAM));
    }
}
