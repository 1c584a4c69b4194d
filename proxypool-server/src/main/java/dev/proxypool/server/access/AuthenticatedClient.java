package dev.proxypool.server.access;

/**
 * A client that passed the access check.
 *
 * @param name    the configured client name, or {@link ClientAuthenticator#ANONYMOUS}
 * @param options the options its proxy username carried ({@link UsernameOptions#none} when none)
 */
public record AuthenticatedClient(String name, UsernameOptions options) {

    public AuthenticatedClient {
        if (name == null || name.isEmpty() || options == null) {
            throw new IllegalArgumentException("authenticated client needs a name and options");
        }
    }
}
