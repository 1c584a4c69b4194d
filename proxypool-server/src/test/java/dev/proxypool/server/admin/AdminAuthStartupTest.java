package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.server.persistence.AuditRecord;
import dev.proxypool.server.persistence.ClientDocs;
import dev.proxypool.server.persistence.ConfigState;
import dev.proxypool.server.persistence.ConfigStore;
import dev.proxypool.server.persistence.Database;
import dev.proxypool.server.persistence.DatabaseSettings;
import dev.proxypool.server.persistence.MemoryConfigStore;
import dev.proxypool.server.persistence.PostgresConfigStore;
import dev.proxypool.server.persistence.StoredOperator;
import dev.proxypool.testkit.Pace;
import dev.proxypool.testkit.TestPorts;
import java.lang.reflect.InvocationTargetException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 37 item 12: a restart must not sign a named operator out. Right after start the operators
 * are not read yet; a request with a valid operator token waits for the first read (or gets a
 * retryable 503), never a 401 that makes the console log out.
 */
@Tag("slow")
class AdminAuthStartupTest {

    static final String OPERATOR = "operator-token-0123456789abcdef";

    @Test
    void concurrentRequestsRightAfterStartAreNeverRefusedAValidOperatorToken() {
        for (int round = 0; round < 3; round++) {
            try (AdminFixture f = AdminFixture.options()
                    .proxies(AdminFixture.proxies(4, "u"))
                    .store(clock -> slowFirstRead(operatorStore(clock), Duration.ofMillis(300)))
                    .start()) {
                List<CompletableFuture<AdminFixture.Response>> calls = new ArrayList<>();
                for (int i = 0; i < 16; i++) {
                    calls.add(CompletableFuture.supplyAsync(() -> f.send("GET", "/whoami", null, OPERATOR)));
                }
                for (CompletableFuture<AdminFixture.Response> c : calls) {
                    AdminFixture.Response r = c.join();
                    assertEquals(200, r.status(), "round " + round + ": " + r.body());
                    assertEquals("olga", r.json().get("name"));
                }
                assertEquals(
                        401,
                        f.send("GET", "/whoami", null, "not-a-token-0123456789").status(),
                        "a wrong token still 401");
            }
        }
    }

    @Test
    void aDatabaseDownAtStartAnswers503ForOperatorTokensAndAdminTokenStillWorks() {
        Database db = Database.open(
                DatabaseSettings.of("jdbc:postgresql://127.0.0.1:" + TestPorts.closedPort() + "/test", "postgres"));
        try (AdminFixture f = AdminFixture.options()
                .proxies(AdminFixture.proxies(4, "u"))
                .store(clock -> new PostgresConfigStore(db, clock))
                .start()) {
            AdminFixture.Response r = f.send("GET", "/proxies", null, OPERATOR);
            assertEquals(503, r.status(), r.body());
            assertEquals("database_unavailable", r.error());
            assertEquals("1", r.headers().firstValue("Retry-After").orElse(""));
            AdminFixture.Response bootstrap = f.get("/proxies");
            assertEquals(200, bootstrap.status(), bootstrap.body());
        } finally {
            db.close();
        }
    }

    @Test
    void withoutAdminTokenTheFirstRequestsWaitInsteadOfAnswering404Disabled() {
        try (AdminFixture f = AdminFixture.options()
                .token(java.util.Optional.empty())
                .store(clock -> slowFirstRead(operatorStore(clock), Duration.ofMillis(300)))
                .start()) {
            List<CompletableFuture<AdminFixture.Response>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(CompletableFuture.supplyAsync(() -> f.send("GET", "/whoami", null, OPERATOR)));
            }
            for (CompletableFuture<AdminFixture.Response> c : calls) {
                AdminFixture.Response r = c.join();
                assertEquals(200, r.status(), r.body());
            }
            assertTrue(f.service.enabled());
        }
    }

    private static MemoryConfigStore operatorStore(java.time.InstantSource clock) {
        MemoryConfigStore s = new MemoryConfigStore(ConfigState.EMPTY, clock);
        s.createOperator(
                new StoredOperator("olga", "admin", ClientDocs.tokenHash(OPERATOR), AdminFixture.START, "admin"),
                AuditRecord.of("admin", "operator.create", "operator", "olga", null, null));
        return s;
    }

    /** The store, whose first read of the operators takes {@code delay} (a database still warming up). */
    private static ConfigStore slowFirstRead(ConfigStore real, Duration delay) {
        AtomicBoolean first = new AtomicBoolean(true);
        return (ConfigStore) java.lang.reflect.Proxy.newProxyInstance(
                ConfigStore.class.getClassLoader(), new Class<?>[] {ConfigStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("operators") && first.compareAndSet(true, false)) {
                        Pace.sleep(delay);
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
