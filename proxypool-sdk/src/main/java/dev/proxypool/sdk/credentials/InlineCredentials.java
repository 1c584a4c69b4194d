package dev.proxypool.sdk.credentials;

import dev.proxypool.core.model.CredentialRef;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The credentials a provider listed inline ({@code http://user:pass@host:port}), kept in memory
 * under a derived {@link CredentialRef}: {@code inline-<16 hex digits>}, a digest of the provider,
 * the username and the proxy address. Snapshots, Redis, the APIs and logs carry only that ref; the
 * password never leaves this store except onto the wire to the proxy. A changed password in the
 * next fetch replaces the old one under the same ref (rotation without restart).
 *
 * <p>Only the process that fetched the list holds the secrets: a process that did not (a cluster
 * worker) fails closed on such a ref, as for any ref its store lacks. Thread-safe.
 */
public final class InlineCredentials implements CredentialStore {

    /** The prefix of every derived ref. */
    public static final String PREFIX = "inline-";

    private final ConcurrentHashMap<String, Credentials> byRef = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, SessionLogin> sessions = new ConcurrentHashMap<>();

    /** An empty store: no ref resolves until {@link #put} is called. */
    public InlineCredentials() {}

    /**
     * Keeps {@code username}/{@code password} for the proxy {@code host:port} of {@code scope} (a
     * provider name) and returns the ref that resolves to them.
     *
     * @param scope    the provider name
     * @param username the username
     * @param password the password, possibly empty
     * @param host     the proxy host
     * @param port     the proxy port
     * @return the derived ref
     * @throws IllegalArgumentException when the username is not usable ({@link Credentials})
     */
    public CredentialRef put(String scope, String username, String password, String host, int port) {
        Credentials creds = Credentials.of(username, password);
        String ref = derive(scope, username, host, port);
        byRef.put(ref, creds);
        return new CredentialRef(ref);
    }

    /**
     * The ref {@link #put} returns for these arguments, without storing anything.
     *
     * @param scope    the provider name
     * @param username the username
     * @param host     the proxy host
     * @param port     the proxy port
     * @return the derived ref
     * @throws IllegalArgumentException when the username is not usable ({@link Credentials})
     */
    public static CredentialRef ref(String scope, String username, String host, int port) {
        Credentials.of(username, "");
        return new CredentialRef(derive(scope, username, host, port));
    }

    /**
     * Keeps the login of one session at a rotating gateway {@code host:port} of {@code scope} and
     * returns the ref that resolves to it. The ref resolves only in a store layered
     * {@link #over} the one that holds the account: the session's credentials are built from the
     * account's at each resolve, so the password stays in that store.
     *
     * @param scope the provider name
     * @param login the session's login
     * @param host  the gateway host
     * @param port  the gateway port
     * @return the derived ref
     */
    public CredentialRef putSession(String scope, SessionLogin login, String host, int port) {
        String ref = derive(scope, login.shape(), host, port);
        sessions.put(ref, login);
        return new CredentialRef(ref);
    }

    /**
     * Forgets a session's ref once the session has ended (so the store does not grow with every
     * session ever minted).
     *
     * @param ref a ref {@link #putSession} returned
     */
    public void forgetSession(CredentialRef ref) {
        sessions.remove(ref.name());
    }

    /**
     * How many refs are held (not secret).
     *
     * @return the number of refs
     */
    public int size() {
        return byRef.size() + sessions.size();
    }

    @Override
    public Credentials resolve(CredentialRef ref) throws CredentialsUnavailableException {
        CredentialStore.requirePresent(ref);
        Credentials c = byRef.get(ref.name());
        if (c == null && sessions.containsKey(ref.name())) {
            throw new CredentialsUnavailableException(ref, "session credentials need the account's store");
        }
        if (c == null) {
            throw new CredentialsUnavailableException(ref, "inline credentials not held by this process");
        }
        return c;
    }

    /**
     * A store that answers refs of this one from here and every other ref from {@code base}.
     *
     * @param base the store for every other ref
     * @return the layered store
     * @throws IllegalArgumentException when {@code base} is null
     */
    public CredentialStore over(CredentialStore base) {
        if (base == null) {
            throw new IllegalArgumentException("base credential store is required");
        }
        InlineCredentials inline = this;
        return new CredentialStore() {
            @Override
            public Credentials resolve(CredentialRef ref) throws CredentialsUnavailableException {
                CredentialStore.requirePresent(ref);
                if (!ref.name().startsWith(PREFIX)) {
                    return base.resolve(ref);
                }
                Credentials c = inline.byRef.get(ref.name());
                if (c != null) {
                    return c;
                }
                SessionLogin session = inline.sessions.get(ref.name());
                if (session == null) {
                    return base.resolve(ref);
                }
                try {
                    return session.apply(base.resolve(session.account()));
                } catch (IllegalArgumentException e) {
                    throw new CredentialsUnavailableException(ref, "session login is not a usable username");
                }
            }

            @Override
            public String toString() {
                return "InlineCredentials[" + inline.size() + " refs] over " + base;
            }
        };
    }

    static String derive(String scope, String username, String host, int port) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            String material = scope + '\0' + username + '\0' + host.toLowerCase(Locale.ROOT) + '\0' + port;
            byte[] d = sha.digest(material.getBytes(StandardCharsets.UTF_8));
            return PREFIX + HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    @Override
    public String toString() {
        return "InlineCredentials[" + size() + " refs]";
    }
}
