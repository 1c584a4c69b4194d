package dev.proxypool.sdk.credentials;

import dev.proxypool.core.model.CredentialRef;

/**
 * A credential ref could not be resolved: the caller must fail closed, never fall back to an
 * unauthenticated attempt. The message names the ref and the reason, never a secret. Checked, so
 * that every caller decides what failing closed means for it.
 */
public final class CredentialsUnavailableException extends Exception {

    /**
     * The ref that could not be resolved (part of the serialized form).
     */
    private final CredentialRef ref;

    /**
     * The credentials {@code ref} names cannot be resolved.
     *
     * @param ref    the ref
     * @param reason why (never a secret)
     */
    public CredentialsUnavailableException(CredentialRef ref, String reason) {
        super("credentials for ref '" + ref.name() + "' are unavailable: " + reason);
        this.ref = ref;
    }

    /**
     * The ref that could not be resolved.
     *
     * @return the ref
     */
    public CredentialRef ref() {
        return ref;
    }
}
