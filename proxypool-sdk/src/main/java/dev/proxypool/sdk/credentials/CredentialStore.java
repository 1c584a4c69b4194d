package dev.proxypool.sdk.credentials;

import dev.proxypool.core.model.CredentialRef;

/**
 * Resolves a {@link CredentialRef} to the credentials it names, at connect time. Implementations
 * are thread-safe and cheap enough to call on every dial.
 */
public interface CredentialStore {

    /**
     * The credentials named by {@code ref}.
     *
     * @param ref the credential ref a proxy names
     * @return its credentials
     * @throws CredentialsUnavailableException when the ref is unknown or the store cannot answer:
     *         fail closed
     * @throws IllegalArgumentException for {@link CredentialRef#NONE} (nothing to resolve)
     */
    Credentials resolve(CredentialRef ref) throws CredentialsUnavailableException;

    /**
     * A store that knows no ref: every resolve fails closed.
     *
     * @return the empty store
     */
    static CredentialStore empty() {
        return StaticCredentialStore.empty();
    }

    /**
     * Rejects {@link CredentialRef#NONE}; for implementations.
     *
     * @param ref the ref to check
     * @throws IllegalArgumentException when {@code ref} is null or {@link CredentialRef#NONE}
     */
    static void requirePresent(CredentialRef ref) {
        if (ref == null || !ref.isPresent()) {
            throw new IllegalArgumentException("credentialRef is absent: a proxy without credentials needs no resolve");
        }
    }
}
