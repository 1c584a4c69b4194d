package dev.proxypool.sdk.credentials;

import dev.proxypool.core.model.CredentialRef;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** A fixed, in-memory credential store: for tests and for SDK users who hold secrets themselves. Immutable. */
public final class StaticCredentialStore implements CredentialStore {

    private static final StaticCredentialStore EMPTY = new StaticCredentialStore(Map.of());

    private final Map<String, Credentials> byRef;

    private StaticCredentialStore(Map<String, Credentials> byRef) {
        this.byRef = byRef;
    }

    /**
     * The store that knows no ref.
     *
     * @return the empty store
     */
    public static StaticCredentialStore empty() {
        return EMPTY;
    }

    /**
     * A store of {@code ref name → credentials}; every name must be a valid {@link CredentialRef}.
     *
     * @param byRef the credentials by ref name
     * @return the store
     * @throws IllegalArgumentException for an invalid name or missing credentials
     */
    public static StaticCredentialStore of(Map<String, Credentials> byRef) {
        Map<String, Credentials> copy = new LinkedHashMap<>();
        byRef.forEach((name, creds) -> {
            if (!new CredentialRef(name).isPresent() || creds == null) {
                throw new IllegalArgumentException(
                        "credential store entry '" + name + "' needs a name and credentials");
            }
            copy.put(name, creds);
        });
        return new StaticCredentialStore(Map.copyOf(copy));
    }

    /**
     * This store plus {@code ref → (username, password)}.
     *
     * @param ref      the ref name
     * @param username the username
     * @param password the password, possibly empty
     * @return a new store; this one is unchanged
     * @throws IllegalArgumentException for an invalid ref or username
     */
    public StaticCredentialStore with(String ref, String username, String password) {
        Map<String, Credentials> copy = new LinkedHashMap<>(byRef);
        copy.put(ref, Credentials.of(username, password));
        return of(copy);
    }

    /**
     * The ref names known (not secret).
     *
     * @return the ref names
     */
    public Set<String> refs() {
        return byRef.keySet();
    }

    @Override
    public Credentials resolve(CredentialRef ref) throws CredentialsUnavailableException {
        CredentialStore.requirePresent(ref);
        Credentials c = byRef.get(ref.name());
        if (c == null) {
            throw new CredentialsUnavailableException(ref, "not in the static credential store");
        }
        return c;
    }

    @Override
    public String toString() {
        return "StaticCredentialStore" + byRef.keySet();
    }
}
