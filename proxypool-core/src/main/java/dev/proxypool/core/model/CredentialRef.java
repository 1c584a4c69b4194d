package dev.proxypool.core.model;

import java.util.regex.Pattern;

/**
 * A reference to proxy credentials held in the credential store. Never the secret itself: this is
 * what snapshots, Redis and the API carry. {@link #NONE} means the proxy needs no credentials.
 *
 * @param name the credential store's name for the secret: empty for {@link #NONE}, else letters,
 *             digits, '.', '_', '-', at most 128 characters, starting with a letter or digit
 */
public record CredentialRef(String name) {

    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    /** No credentials. */
    public static final CredentialRef NONE = new CredentialRef("");

    /**
     * Validates the name.
     *
     * @throws IllegalArgumentException if the name is null or not a valid ref
     */
    public CredentialRef {
        if (name == null) {
            throw new IllegalArgumentException("credentialRef must not be null (use CredentialRef.NONE)");
        }
        if (!name.isEmpty() && !VALID.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "credentialRef '" + name + "' is invalid (letters, digits, '.', '_', '-'; at most 128 characters)");
        }
    }

    /**
     * A ref from user input, trimmed.
     *
     * @param name the ref's name; null or blank means none
     * @return the ref named {@code name}, or {@link #NONE} for null/blank
     * @throws IllegalArgumentException if the trimmed name is not a valid ref
     */
    public static CredentialRef of(String name) {
        return name == null || name.isBlank() ? NONE : new CredentialRef(name.trim());
    }

    /**
     * Whether the proxy needs credentials.
     *
     * @return false for {@link #NONE}
     */
    public boolean isPresent() {
        return !name.isEmpty();
    }

    @Override
    public String toString() {
        return isPresent() ? name : "-";
    }
}
