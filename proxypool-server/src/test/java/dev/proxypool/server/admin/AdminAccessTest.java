package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The admin token: separate, required, and its absence disables the API. */
class AdminAccessTest {

    @Test
    void aMissingOrWrongTokenIs401OnEveryPath() {
        try (AdminFixture f = AdminFixture.options().start()) {
            for (String path : List.of("/providers", "/routings/x", "/proxies", "/snapshot", "/audit", "/nowhere")) {
                for (String token : new String[] {null, "wrong-token-0123456789", AdminFixture.TOKEN + "x", ""}) {
                    AdminFixture.Response r = f.send("GET", path, null, token);
                    assertEquals(401, r.status(), path + " with " + token);
                    assertEquals("unauthorized", r.error());
                    assertEquals(
                            "Bearer realm=\"proxypool\"",
                            r.headers().firstValue("WWW-Authenticate").orElseThrow());
                }
            }
            AdminFixture.Response write =
                    f.send("POST", "/providers", "{\"name\": \"p\", \"type\": \"x\"}", "wrong-token-0123456789");
            assertEquals(401, write.status());
            assertTrue(f.store.state().providers().isEmpty(), "nothing written without the token");
            assertEquals(200, f.get("/providers").status());
        }
    }

    @Test
    void aClientTokenIsNotAnAdminToken() {
        try (AdminFixture f = AdminFixture.options().start()) {
            assertEquals(
                    201,
                    f.post("/clients", "{\"name\": \"alice\", \"token\": \"alice-token-0123456789\"}")
                            .status());
            assertEquals(
                    401,
                    f.send("GET", "/clients", null, "alice-token-0123456789").status());
        }
    }

    @Test
    void withoutAConfiguredTokenTheAdminApiIsDisabled() {
        try (AdminFixture f = AdminFixture.options().token(Optional.empty()).start()) {
            AdminFixture.Response r = f.send("GET", "/providers", null, AdminFixture.TOKEN);
            assertEquals(404, r.status());
            assertEquals("admin_disabled", r.error());
            assertTrue(r.message().contains("admin.token"), r.message());
            assertEquals(404, f.send("POST", "/proxies/x/disable", null, null).status());
        }
    }

    @Test
    void unknownAdminPathsAnswerJson404() {
        try (AdminFixture f = AdminFixture.options().start()) {
            AdminFixture.Response r = f.get("/nowhere");
            assertEquals(404, r.status());
            assertEquals("not_found", r.error());
            assertEquals("no admin resource GET /v1/admin/nowhere", r.message());
            assertEquals(
                    404, f.send("PATCH", "/providers", "{}", AdminFixture.TOKEN).status());
        }
    }
}
