package dev.proxypool.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.Fulfillment;
import dev.proxypool.core.model.Protocol;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link Extraction} is immutable, like {@link Selection}: refining one leaves the original as it was. */
class ExtractionTest {

    @Test
    void refiningReturnsANewExtractionAndLeavesTheBaseUnchanged() {
        Extraction base = Extraction.of(3);
        Extraction us = base.protocol(Protocol.HTTP)
                .country("US")
                .minRemainingTtl(Duration.ofSeconds(30))
                .allOrNothing();
        assertNotSame(base, us);

        ExtractionRequest plain = base.toRequest(0);
        assertTrue(plain.filter().isAny(), "the base keeps no filter: " + plain.filter());
        assertEquals(Fulfillment.PARTIAL, plain.fulfillment());
        assertEquals(Duration.ZERO, plain.minRemainingTtl());

        ExtractionRequest refined = us.toRequest(0);
        assertEquals(Fulfillment.ALL_OR_NOTHING, refined.fulfillment());
        assertEquals(Protocol.HTTP, refined.filter().protocol().orElseThrow());
        assertEquals(Duration.ofSeconds(30), refined.minRemainingTtl());
    }

    @Test
    void siblingsBuiltFromOneBaseDoNotSeeEachOthersTerms() {
        Extraction base = Extraction.of(2).protocol(Protocol.HTTP);
        Extraction us = base.country("US");
        Extraction de = base.country("DE");
        assertEquals(
                us.toRequest(0).filter(),
                Extraction.of(2)
                        .protocol(Protocol.HTTP)
                        .country("US")
                        .toRequest(0)
                        .filter());
        assertEquals(
                de.toRequest(0).filter(),
                Extraction.of(2)
                        .protocol(Protocol.HTTP)
                        .country("DE")
                        .toRequest(0)
                        .filter());
        assertEquals(
                base.toRequest(0).filter(),
                Extraction.of(2).protocol(Protocol.HTTP).toRequest(0).filter());
    }

    @Test
    void aBadTermFailsWhenSetNamingIt() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Extraction.of(1).label("", "x"));
        assertTrue(e.getMessage().toLowerCase().contains("label"), e.getMessage());
    }
}
