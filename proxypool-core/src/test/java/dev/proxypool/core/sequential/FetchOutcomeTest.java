package dev.proxypool.core.sequential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FetchOutcomeTest {

    @Test
    void classifyKeepsEmptyAndDuplicateOnlyApart() {
        assertEquals(new FetchOutcome.Success(3), FetchOutcome.classify(3, 10));
        assertEquals(FetchOutcome.DUPLICATE_ONLY, FetchOutcome.classify(0, 10));
        assertEquals(FetchOutcome.EMPTY, FetchOutcome.classify(0, 0));
        assertThrows(IllegalArgumentException.class, () -> FetchOutcome.classify(-1, 0));
    }

    @Test
    void successNeedsNewCandidates() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new FetchOutcome.Success(0));
        assertEquals(
                "Success needs at least one new candidate, got 0 (zero is Empty or DuplicateOnly)", e.getMessage());
    }

    @Test
    void errorDetailIsBoundedAndKindRequired() {
        assertEquals(
                FetchOutcome.Error.MAX_DETAIL,
                new FetchOutcome.Error(FetchOutcome.ErrorKind.PARSE, "x".repeat(2000))
                        .detail()
                        .length());
        assertEquals("", new FetchOutcome.Error(FetchOutcome.ErrorKind.TIMEOUT, null).detail());
        assertThrows(IllegalArgumentException.class, () -> new FetchOutcome.Error(null, "x"));
    }

    @Test
    void labelsAreLowCardinality() {
        assertEquals("success", new FetchOutcome.Success(1).label());
        assertEquals("empty", FetchOutcome.EMPTY.label());
        assertEquals("duplicate_only", FetchOutcome.DUPLICATE_ONLY.label());
        assertEquals("error", new FetchOutcome.Error(FetchOutcome.ErrorKind.AUTH, "401").label());
        assertEquals("http_status", FetchOutcome.ErrorKind.HTTP_STATUS.label());
        assertEquals("size_limit", FetchOutcome.ErrorKind.SIZE_LIMIT.label());
    }
}
