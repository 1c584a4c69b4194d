package dev.proxypool.sdk.credentials;

import dev.proxypool.core.model.CredentialRef;

/**
 * A credential ref could not be resolved: the caller must fail closed, never fall back to an
 * unauthenticated attempt. The message names the ref and the reason, never a secret. Checked, so
 * that every caller decides what failing closed means for it.
 */
public final class CredentialsUnavailableException extends Exception {

    private final CredentialRef ref;

    public CredentialsUnavailableException(CredentialRef ref, String reason) {
        super("credentials for ref '" + ref.name() + "' are unavailable: " + reason);
        this.ref = ref;
    }

    public CredentialRef ref() {
        return ref;
    }
}
