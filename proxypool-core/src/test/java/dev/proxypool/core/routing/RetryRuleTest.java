package dev.proxypool.core.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.FailureKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetryRuleTest {

    @Test
    void onlyGetAndHeadWithoutBodyAreRetryable() {
        assertTrue(RetryRule.retryable("GET", false));
        assertTrue(RetryRule.retryable("HEAD", false));
        assertFalse(RetryRule.retryable("GET", true));
        assertFalse(RetryRule.retryable("POST", false));
        assertTrue(RetryRule.retryable("PUT", false), "idempotent (RFC 9110 9.2.2)");
        assertTrue(RetryRule.retryable("DELETE", false));
        assertTrue(RetryRule.retryable("OPTIONS", false));
        assertFalse(RetryRule.retryable("PUT", true), "a body is not replayed");
        assertFalse(RetryRule.retryable("PATCH", false));
        assertFalse(RetryRule.retryable("get", false), "methods are case-sensitive");
        assertEquals(10, RetryRule.attemptsAllowed("GET", false, 10));
        assertEquals(1, RetryRule.attemptsAllowed("POST", false, 10));
        assertEquals(1, RetryRule.attemptsAllowed("GET", true, 10));
    }

    @Test
    void attemptCeilingIsBounded() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> RetryRule.attemptsAllowed("GET", false, 11));
        assertTrue(e.getMessage().contains("11"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RetryRule.attemptsAllowed("GET", false, 0));
        IllegalArgumentException p = assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(11, 20));
        assertTrue(p.getMessage().contains("retry.maxAttempts"), p.getMessage());
    }

    @Test
    void aFirstAttemptAlwaysGoesAheadAndRetriesStopAtMaxAttempts() {
        RetryRule rule = new RetryRule(new RetryPolicy(3, 100));
        assertTrue(rule.admit(1));
        assertTrue(rule.admit(2));
        assertTrue(rule.admit(3));
        assertFalse(rule.admit(4), "beyond retry.maxAttempts");
        assertThrows(IllegalArgumentException.class, () -> rule.admit(0));
    }

    @Test
    void noneNeverRetries() {
        RetryRule rule = new RetryRule(RetryPolicy.NONE);
        assertTrue(rule.admit(1));
        assertFalse(rule.admit(2));
    }

    @Test
    void aZeroBudgetNeverRetriesEvenWithAttemptsLeft() {
        RetryRule rule = new RetryRule(new RetryPolicy(5, 0));
        for (int i = 0; i < 100; i++) {
            assertTrue(rule.admit(1));
        }
        assertFalse(rule.admit(2));
    }

    @Test
    void theBudgetStartsFullAndIsEarnedBackByRequests() {
        RetryRule rule = new RetryRule(new RetryPolicy(2, 20));
        for (int i = 0; i < RetryBudget.CAP; i++) {
            assertTrue(rule.admit(2), "retry " + i + " of the initial bucket");
        }
        assertFalse(rule.admit(2), "the bucket is empty");
        for (int i = 0; i < 4; i++) {
            rule.admit(1);
        }
        assertFalse(rule.admit(2), "4 requests at 20% earn 0.8 of a token");
        rule.admit(1);
        assertTrue(rule.admit(2), "the 5th request completes a token");
        assertFalse(rule.admit(2));
    }

    @Test
    void theBudgetNeverHoldsMoreThanItsCap() {
        RetryRule rule = new RetryRule(new RetryPolicy(2, 100));
        for (int i = 0; i < 1_000; i++) {
            rule.admit(1);
        }
        int retries = 0;
        while (rule.admit(2) && retries <= RetryBudget.CAP) {
            retries++;
        }
        assertEquals(RetryBudget.CAP, retries);
    }

    @Test
    void eachRetryAvoidsEveryProxyAlreadyTried() {
        List<String> first = RetryRule.excluding(List.of(), "p1");
        assertEquals(List.of("p1"), first);
        List<String> second = RetryRule.excluding(first, "p2");
        assertEquals(List.of("p1", "p2"), second);
        assertEquals(List.of("p1"), first, "the previous list is left alone");
        assertThrows(UnsupportedOperationException.class, () -> second.add("p3"));
    }

    @Test
    void aTunnelIsRetriedWhenTheProxyIsToBlameAndAttemptsAreLeft() {
        assertTrue(RetryRule.retriesTunnel(FailureKind.CONNECTION_REFUSED, 1, 2));
        assertTrue(RetryRule.retriesTunnel(FailureKind.CONNECT_TIMEOUT, 1, 2));
        assertTrue(RetryRule.retriesTunnel(FailureKind.CONNECTION_RESET, 1, 2));
        assertTrue(RetryRule.retriesTunnel(FailureKind.PROTOCOL_ERROR, 1, 2));
        assertTrue(RetryRule.retriesTunnel(FailureKind.PROXY_AUTH_REJECTED, 1, 2));
        assertFalse(RetryRule.retriesTunnel(FailureKind.CONNECTION_REFUSED, 2, 2), "the ceiling is reached");
        assertFalse(RetryRule.retriesTunnel(FailureKind.UPSTREAM_UNREACHABLE, 1, 2), "the destination is to blame");
    }
}
