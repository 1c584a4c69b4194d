package dev.proxypool.server.nodes;

/**
 * A registration token as issued: returned once by {@link NodeRegistry#issueToken(String)}; the
 * registry keeps only its SHA-256 digest. {@link #toString()} never prints the token.
 *
 * @param name  the operator's name for it (unique; the handle used to revoke it)
 * @param token 32 random bytes, base64url without padding
 */
public record IssuedToken(String name, String token) {

    @Override
    public String toString() {
        return "IssuedToken[name=" + name + ", token=***]";
    }
}
