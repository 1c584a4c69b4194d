package dev.proxypool.core.extract;

/**
 * An {@code Idempotency-Key} in the namespace of the client that sent it: two clients may use the
 * same key without seeing each other's results. Validated on construction, so every store enforces
 * the same limits.
 *
 * @param client the authenticated client's name, not blank
 * @param key    the header value: 1..{@value #MAX_LENGTH} characters, no control characters
 */
public record IdempotencyKey(String client, String key) {

    /** The longest {@code Idempotency-Key} accepted, in characters. */
    public static final int MAX_LENGTH = 255;

    /**
     * Validates both parts.
     *
     * @throws IllegalArgumentException if the client is blank, or the key is empty, too long or
     *     contains a control character
     */
    public IdempotencyKey {
        if (client == null || client.isBlank()) {
            throw new IllegalArgumentException("idempotency client name must not be blank");
        }
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("Idempotency-Key must not be empty");
        }
        if (key.length() > MAX_LENGTH) {
            throw new IllegalArgumentException(
                    "Idempotency-Key must be at most " + MAX_LENGTH + " characters, got " + key.length());
        }
        for (int i = 0; i < key.length(); i++) {
            if (Character.isISOControl(key.charAt(i))) {
                throw new IllegalArgumentException(
                        "Idempotency-Key must not contain control characters (at index " + i + ")");
            }
        }
    }

    @Override
    public String toString() {
        return client + "/" + key;
    }
}
