package dev.proxypool.sdk.credentials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.CredentialRef;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StaticCredentialStoreTest {

    @Test
    void resolvesKnownRefsAndFailsClosedOnOthers() throws Exception {
        StaticCredentialStore store =
                StaticCredentialStore.empty().with("vendor-a", "alice", "pw-a").with("vendor-b", "bob", "pw-b");
        assertEquals(Credentials.of("alice", "pw-a"), store.resolve(new CredentialRef("vendor-a")));
        assertEquals(Set.of("vendor-a", "vendor-b"), store.refs());
        CredentialsUnavailableException e =
                assertThrows(CredentialsUnavailableException.class, () -> store.resolve(new CredentialRef("vendor-c")));
        assertTrue(e.getMessage().contains("'vendor-c'"));
        assertThrows(
                CredentialsUnavailableException.class,
                () -> CredentialStore.empty().resolve(new CredentialRef("vendor-a")));
    }

    @Test
    void noneIsNotSomethingToResolve() {
        assertThrows(
                IllegalArgumentException.class,
                () -> StaticCredentialStore.empty().resolve(CredentialRef.NONE));
        assertThrows(
                IllegalArgumentException.class,
                () -> StaticCredentialStore.of(Map.of("bad ref", Credentials.of("u", "p"))));
    }
}
