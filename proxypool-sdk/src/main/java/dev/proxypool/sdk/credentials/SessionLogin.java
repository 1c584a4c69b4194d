package dev.proxypool.sdk.credentials;

import dev.proxypool.core.model.CredentialRef;
import java.util.List;

/**
 * The login of one session at a rotating gateway: the account's credentials with the session's
 * id, lifetime and targeting written around them ({@code customer-USER-cc-DE-sessid-abc123}).
 * Only the non-secret parts are held here; the account's username and password are read from the
 * credential store at each resolve, so the password never leaves it.
 *
 * @param account  the ref of the account's credentials
 * @param username the username, as parts
 * @param password the password, as parts
 */
public record SessionLogin(CredentialRef account, List<Part> username, List<Part> password) {

    /** One piece of a session login. */
    public sealed interface Part {}

    /**
     * Text written as is (the session id, a label value, a separator).
     *
     * @param text the text
     */
    public record Text(String text) implements Part {}

    /** The account's username. */
    public record AccountUser() implements Part {}

    /** The account's password. */
    public record AccountPassword() implements Part {}

    /**
     * Copies and validates.
     *
     * @throws IllegalArgumentException when the account ref is absent or a part list is missing
     */
    public SessionLogin {
        CredentialStore.requirePresent(account);
        if (username == null || username.isEmpty() || password == null) {
            throw new IllegalArgumentException("session login: username parts are required");
        }
        username = List.copyOf(username);
        password = List.copyOf(password);
    }

    /**
     * The session's credentials for the account's.
     *
     * @param accountCredentials what the store holds for {@link #account()}
     * @return the session's credentials
     * @throws IllegalArgumentException when the result is not a usable username
     */
    public Credentials apply(Credentials accountCredentials) {
        return Credentials.of(render(username, accountCredentials), render(password, accountCredentials));
    }

    /**
     * The username with the account's parts as {@code {user}} and {@code {password}}: not secret,
     * stable for one session, so it names the session in derived refs.
     *
     * @return the shape of the username
     */
    public String shape() {
        StringBuilder sb = new StringBuilder();
        for (Part p : username) {
            sb.append(
                    switch (p) {
                        case Text t -> t.text();
                        case AccountUser u -> "{user}";
                        case AccountPassword pw -> "{password}";
                    });
        }
        sb.append('\0');
        for (Part p : password) {
            sb.append(
                    switch (p) {
                        case Text t -> t.text();
                        case AccountUser u -> "{user}";
                        case AccountPassword pw -> "{password}";
                    });
        }
        return sb.toString();
    }

    private static String render(List<Part> parts, Credentials account) {
        StringBuilder sb = new StringBuilder(64);
        for (Part p : parts) {
            switch (p) {
                case Text t -> sb.append(t.text());
                case AccountUser u -> sb.append(account.username());
                case AccountPassword pw -> sb.append(account.password().reveal());
            }
        }
        return sb.toString();
    }

    /** The account ref and the session's shape; never the secret. */
    @Override
    public String toString() {
        return "SessionLogin[" + account + "]";
    }
}
