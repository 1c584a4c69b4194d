package dev.proxypool.sdk.credentials;

/**
 * A secret value (a password, a token, a ready {@code Proxy-Authorization} value). Its
 * {@link #toString()} is {@code ***}, so it can sit in records, exceptions and log lines without
 * leaking; the value comes out only through an explicit {@link #reveal()}. Immutable and
 * thread-safe (the characters are copied in and out). Equality compares contents in constant time.
 */
public final class Secret {

    /** The empty secret. */
    public static final Secret EMPTY = new Secret(new char[0]);

    private final char[] value;

    private Secret(char[] value) {
        this.value = value;
    }

    /**
     * A secret holding {@code value}.
     *
     * @param value the secret text; empty gives {@link #EMPTY}
     * @return the secret
     * @throws IllegalArgumentException for null
     */
    public static Secret of(String value) {
        if (value == null) {
            throw new IllegalArgumentException("secret must not be null (use Secret.EMPTY)");
        }
        return value.isEmpty() ? EMPTY : new Secret(value.toCharArray());
    }

    /**
     * A secret holding a copy of {@code value}; the caller may wipe its array.
     *
     * @param value the secret characters; empty gives {@link #EMPTY}
     * @return the secret
     * @throws IllegalArgumentException for null
     */
    public static Secret of(char[] value) {
        if (value == null) {
            throw new IllegalArgumentException("secret must not be null (use Secret.EMPTY)");
        }
        return value.length == 0 ? EMPTY : new Secret(value.clone());
    }

    /**
     * The secret as a String. Call it only where the value is put on the wire.
     *
     * @return the secret text
     */
    public String reveal() {
        return new String(value);
    }

    /**
     * A copy of the secret's characters; the caller may wipe it after use.
     *
     * @return a fresh copy of the characters
     */
    public char[] revealChars() {
        return value.clone();
    }

    /**
     * Constant-time comparison with a presented value (a bearer token, a password).
     *
     * @param presented the value presented, may be null
     * @return whether it equals this secret
     */
    public boolean matches(String presented) {
        return presented != null && equals(Secret.of(presented));
    }

    /**
     * Whether the secret has no characters (a username-only credential).
     *
     * @return true for {@link #EMPTY}
     */
    public boolean isEmpty() {
        return value.length == 0;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Secret other)) {
            return false;
        }
        int diff = value.length ^ other.value.length;
        int n = Math.max(value.length, other.value.length);
        for (int i = 0; i < n; i++) {
            char a = i < value.length ? value[i] : 0;
            char b = i < other.value.length ? other.value[i] : 0;
            diff |= a ^ b;
        }
        return diff == 0;
    }

    /** Depends on the length only: a hash of the content would be a cheap oracle for it. */
    @Override
    public int hashCode() {
        return value.length;
    }

    @Override
    public String toString() {
        return "***";
    }
}
