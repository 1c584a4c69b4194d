package dev.proxypool.core.extract;

/**
 * The answer of {@link PoolStore#beginIdempotent}: whether the caller may run the request. The server
 * maps them: {@link Started} runs it, {@link InProgress} → {@code 409 request_in_progress},
 * {@link Replay} → the stored response, {@link Mismatch} → {@code 422}.
 */
public sealed interface IdempotencyStart {

    /** The shared {@link Started} answer (the record has no state). */
    Started STARTED = new Started();
    /** The shared {@link InProgress} answer. */
    InProgress IN_PROGRESS = new InProgress();
    /** The shared {@link Mismatch} answer. */
    Mismatch MISMATCH = new Mismatch();

    /** The key was free (or its record expired): it is now held in progress for this caller. */
    record Started() implements IdempotencyStart {}

    /** The same key and request are still running elsewhere. */
    record InProgress() implements IdempotencyStart {}

    /**
     * The same key and request completed: answer with the stored response, extract nothing.
     *
     * @param storedResponse the response stored by {@link PoolStore#completeIdempotent}, replayed verbatim
     */
    record Replay(String storedResponse) implements IdempotencyStart {
        /**
         * Checks the response is present.
         *
         * @throws IllegalArgumentException if it is null
         */
        public Replay {
            if (storedResponse == null) {
                throw new IllegalArgumentException("stored response must not be null");
            }
        }
    }

    /** The key is held (running or completed) for a different request body. */
    record Mismatch() implements IdempotencyStart {}
}
