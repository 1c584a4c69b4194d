package dev.proxypool.core.extract;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The value types: validation messages naming the key, parsing, and the per-proxy admission rule. */
class ExtractValuesTest {

    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void storeSettingsNameTheConfigKey() {
        assertAll(
                () -> assertEquals(
                        "StoreSettings.tombstoneRetentionForNoExpiry must be a positive duration, got PT0S",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> StoreSettings.builder()
                                                .tombstoneRetentionForNoExpiry(Duration.ZERO)
                                                .build())
                                .getMessage()),
                () -> assertEquals(
                        "distribution.idempotencyTtl must be a positive duration, got PT-1S",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> StoreSettings.builder()
                                                .idempotencyRetention(Duration.ofSeconds(-1))
                                                .build())
                                .getMessage()),
                () -> assertEquals(
                        "StoreSettings.idempotencyInProgressTimeout must be a positive duration, got null",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> StoreSettings.builder()
                                                .idempotencyInProgressTimeout(null)
                                                .build())
                                .getMessage()),
                () -> assertEquals(
                        "StoreSettings.idempotencyMaxEntries must be at least 1, got 0",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> StoreSettings.builder()
                                                .idempotencyMaxEntries(0)
                                                .build())
                                .getMessage()),
                () -> assertEquals(
                        new StoreSettings(Duration.ofDays(7), Duration.ofHours(24), Duration.ofSeconds(60), 100_000),
                        StoreSettings.DEFAULTS));
    }

    @Test
    void proxyStateParsesAdminNames() {
        assertEquals(ProxyState.DISABLED, ProxyState.parse(" Disabled "));
        assertEquals("available", ProxyState.AVAILABLE.wireName());
        assertEquals(
                "unknown state 'extracted' (expected available or disabled)",
                assertThrows(IllegalArgumentException.class, () -> ProxyState.parse("extracted"))
                        .getMessage());
    }

    /** Rows: expiresAt (null = never), checkedAt (null = never), minRemainingTtl, maxHealthAge, admitted. */
    @Test
    void admissionRuleTable() {
        Object[][] rows = {
            {null, null, Duration.ZERO, Duration.ZERO, true},
            {null, null, Duration.ofDays(365), Duration.ZERO, true},
            {T, null, Duration.ZERO, Duration.ZERO, false},
            {T.plusSeconds(1), null, Duration.ZERO, Duration.ZERO, true},
            {T.plusSeconds(59), null, Duration.ofSeconds(60), Duration.ZERO, false},
            {T.plusSeconds(60), null, Duration.ofSeconds(60), Duration.ZERO, true},
            {null, null, Duration.ZERO, Duration.ofMinutes(1), false},
            {null, T.minusSeconds(60), Duration.ZERO, Duration.ofMinutes(1), true},
            {null, T.minusSeconds(61), Duration.ZERO, Duration.ofMinutes(1), false},
            {null, T.plusSeconds(5), Duration.ZERO, Duration.ofMinutes(1), true},
        };
        for (Object[] row : rows) {
            Proxy p = ProxyFixtures.builder(1).expiresAt((Instant) row[0]).build();
            ExtractionRequest req = ExtractionRequest.builder(1)
                    .minRemainingTtl((Duration) row[2])
                    .maxHealthAge((Duration) row[3])
                    .build();
            assertEquals(row[4], req.admits(p, (Instant) row[1], T), java.util.Arrays.toString(row));
        }
    }

    @Test
    void maxExtractableHonoursCountAndReserve() {
        ExtractionRequest req = ExtractionRequest.builder(5).gatewayReserve(7).build();
        assertEquals(
                List.of(0, 0, 1, 5, 5),
                List.of(
                        req.maxExtractable(0),
                        req.maxExtractable(7),
                        req.maxExtractable(8),
                        req.maxExtractable(12),
                        req.maxExtractable(100)));
    }

    @Test
    void filterMatchesEveryTerm() {
        Proxy p = ProxyFixtures.builder(1, Protocol.SOCKS5)
                .upstream("u")
                .labels(Labels.of("country", "US", "isp", "x"))
                .build();
        assertTrue(ExtractionFilter.ANY.matches(p));
        assertTrue(ExtractionFilter.ANY.isAny());
        assertTrue(ExtractionFilter.builder()
                .protocol(Protocol.SOCKS5)
                .upstream("u")
                .country("US")
                .build()
                .matches(p));
        assertFalse(ExtractionFilter.builder().carrier("x").build().matches(p));
        assertFalse(ExtractionFilter.builder().upstream("v").build().matches(p));
        assertEquals(
                Optional.of("u"),
                ExtractionFilter.builder().upstream(" u ").build().upstream());
    }

    @Test
    void resultsAndPagesAreImmutableValues() {
        assertEquals(10, new PublishResult(1, 2, 3, 4, 0).total());
        assertThrows(IllegalArgumentException.class, () -> new ExtractionResult.Insufficient(-1));
        assertThrows(IllegalArgumentException.class, () -> new ProxyPage(List.of(), null));
        assertThrows(IllegalArgumentException.class, () -> new IdempotencyStart.Replay(null));
        ExtractedProxy e = new ExtractedProxy(
                ProxyFixtures.builder(1).expiresAt(T.plusSeconds(90)).build(), T);
        assertEquals(Duration.ofSeconds(90), e.remainingTtl());
    }

    @Test
    void cursorsRoundTripAnyId() {
        for (String id : List.of("p-abc", "a", "ünïcode/id with spaces", "x".repeat(300))) {
            assertEquals(Optional.of(id), new PageRequest(PageRequest.cursorAfter(id), 5).afterId());
        }
        assertEquals(Optional.empty(), PageRequest.first(5).afterId());
    }
}
