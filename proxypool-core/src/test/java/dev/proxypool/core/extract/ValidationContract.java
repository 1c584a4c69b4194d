package dev.proxypool.core.extract;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proxypool.core.model.Protocol;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Request validation: the messages the API returns in {@code 400 invalid_request}. */
public interface ValidationContract extends StoreUnderTest {

    @Test
    default void countOutsideOneToThousandIsRejected() {
        List<Executable> checks = new ArrayList<>();
        for (int bad : new int[] {0, -1, 1001, Integer.MIN_VALUE}) {
            checks.add(() -> assertEquals(
                    "count must be between 1 and 1000, got " + bad,
                    assertThrows(
                                    IllegalArgumentException.class,
                                    () -> ExtractionRequest.builder(bad).build())
                            .getMessage()));
        }
        for (int good : new int[] {1, 1000}) {
            checks.add(() ->
                    assertEquals(good, ExtractionRequest.builder(good).build().count()));
        }
        assertAll(checks);
        assertEquals(
                List.of(),
                ProxyFixtures.extracted(extract(ExtractionRequest.builder(1000).build())));
    }

    @Test
    default void fulfillmentParsesItsWireNamesOnly() {
        Map<String, Fulfillment> good = Map.of(
                "partial",
                Fulfillment.PARTIAL,
                "allOrNothing",
                Fulfillment.ALL_OR_NOTHING,
                "ALLORNOTHING",
                Fulfillment.ALL_OR_NOTHING,
                " partial ",
                Fulfillment.PARTIAL);
        List<Executable> checks = new ArrayList<>();
        good.forEach((text, f) -> checks.add(() -> assertEquals(f, Fulfillment.parse(text), text)));
        for (String bad : new String[] {"some", "", "all_or_nothing", "ALL_OR_NOTHING"}) {
            checks.add(() -> assertEquals(
                    "unknown fulfillment '" + bad + "' (expected partial or allOrNothing)",
                    assertThrows(IllegalArgumentException.class, () -> Fulfillment.parse(bad))
                            .getMessage()));
        }
        checks.add(() -> assertThrows(IllegalArgumentException.class, () -> Fulfillment.parse(null)));
        checks.add(() -> assertEquals("allOrNothing", Fulfillment.ALL_OR_NOTHING.wireName()));
        assertAll(checks);
    }

    @Test
    default void negativeLimitsAreRejectedNamingTheField() {
        assertAll(
                () -> assertEquals(
                        "minRemainingTtl must not be negative, got PT-1S",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> ExtractionRequest.builder(1)
                                                .minRemainingTtl(Duration.ofSeconds(-1))
                                                .build())
                                .getMessage()),
                () -> assertEquals(
                        "maxHealthAge must not be negative, got PT-1S",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> ExtractionRequest.builder(1)
                                                .maxHealthAge(Duration.ofSeconds(-1))
                                                .build())
                                .getMessage()),
                () -> assertEquals(
                        "gatewayReserve must not be negative, got -1",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> ExtractionRequest.builder(1)
                                                .gatewayReserve(-1)
                                                .build())
                                .getMessage()),
                () -> assertEquals(
                        "fulfillment is missing (expected partial or allOrNothing)",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> ExtractionRequest.builder(1)
                                                .fulfillment(null)
                                                .build())
                                .getMessage()));
    }

    @Test
    default void filterTermsMustAgreeAndNotBeBlank() {
        assertAll(
                () -> assertEquals(
                        "filter.country is given twice with different values: 'US' and 'DE'",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> ExtractionFilter.builder()
                                                .country("US")
                                                .labels(Map.of("country", "DE"))
                                                .build())
                                .getMessage()),
                () -> assertEquals(
                        "filter.city must not be blank",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> ExtractionFilter.builder().city(" "))
                                .getMessage()),
                () -> assertEquals(
                        "filter.upstream must not be blank",
                        assertThrows(
                                        IllegalArgumentException.class,
                                        () -> ExtractionFilter.builder().upstream(""))
                                .getMessage()),
                () -> assertEquals(
                        ExtractionFilter.builder()
                                .country("US")
                                .protocol(Protocol.HTTP)
                                .build(),
                        ExtractionFilter.builder()
                                .protocol(Protocol.HTTP)
                                .labels(Map.of("country", "US"))
                                .country("US")
                                .build()));
    }

    @Test
    default void pageRequestsAreValidated() {
        assertAll(
                () -> assertEquals(
                        "limit must be between 1 and 1000, got 0",
                        assertThrows(IllegalArgumentException.class, () -> PageRequest.first(0))
                                .getMessage()),
                () -> assertEquals(
                        "limit must be between 1 and 1000, got 1001",
                        assertThrows(IllegalArgumentException.class, () -> PageRequest.first(1001))
                                .getMessage()),
                () -> assertEquals(
                        "cursor 'not a cursor!' is invalid (use the nextCursor of a previous page)",
                        assertThrows(IllegalArgumentException.class, () -> new PageRequest("not a cursor!", 10))
                                .getMessage()),
                () -> assertThrows(IllegalArgumentException.class, () -> new PageRequest("cA=", 10)),
                () -> assertEquals(
                        "p-abc",
                        new PageRequest(PageRequest.cursorAfter("p-abc"), 10)
                                .afterId()
                                .orElseThrow()));
    }
}
