package dev.proxypool.sdk.config;

/**
 * A secret read from config or the environment (admin token, client token, database password).
 * {@link #toString()} prints {@code ***} so it cannot leak through logs or config dumps;
 * {@link #reveal()} is the one explicit way to the value.
 */
public final class SecretText {

    private final String value;

    private SecretText(String value) {
        this.value = value;
    }

    public static SecretText of(String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("secret must not be empty");
        }
        return new SecretText(value);
    }

    public String reveal() {
        return value;
    }

    /** Constant-time comparison with a presented value. */
    public boolean matches(String presented) {
        if (presented == null) {
            return false;
        }
        return java.security.MessageDigest.isEqual(
                value.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                presented.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "***";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SecretText s && s.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }
}
