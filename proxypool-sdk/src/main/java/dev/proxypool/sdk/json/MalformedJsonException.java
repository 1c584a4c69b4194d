package dev.proxypool.sdk.json;

/**
 * A JSON text {@link JsonCodec} refused. The message never holds the raw input; callers word it
 * for their reader with {@link #describe(String)}.
 */
public final class MalformedJsonException extends IllegalArgumentException {

    /** Why the text was refused. */
    public enum Reason {
        /** Nothing but whitespace. */
        EMPTY,
        /** Not JSON. */
        SYNTAX,
        /** More data after the top-level value. */
        TRAILING,
        /** Nests deeper than the reader allows. */
        TOO_DEEP,
        /** The document, a string, a key or a number is over its size limit. */
        TOO_LONG,
        /** A key appears twice in one object. */
        DUPLICATE_KEY
    }

    private final Reason reason;
    private final String detail;
    private final String duplicateKey;

    MalformedJsonException(Reason reason, String detail, String duplicateKey) {
        super(new Worded(reason, detail).text("JSON"), null);
        this.reason = reason;
        this.detail = detail;
        this.duplicateKey = duplicateKey;
    }

    /** Why the text was refused. */
    public Reason reason() {
        return reason;
    }

    /** The path of the repeated key ({@code filter.labels.kind}) for {@link Reason#DUPLICATE_KEY}, else null. */
    public String duplicateKey() {
        return duplicateKey;
    }

    /**
     * The problem worded for {@code subject} (for instance {@code "request body"}):
     * {@code request body is not valid JSON: ...}, {@code request body nests deeper than 16 levels},
     * {@code duplicate key 'count' in the request body (each key may appear once)}.
     */
    public String describe(String subject) {
        return new Worded(reason, detail).text(subject);
    }

    private record Worded(Reason reason, String detail) {
        String text(String subject) {
            return switch (reason) {
                case EMPTY -> subject + " is empty";
                case SYNTAX -> subject + " is not valid JSON: " + detail;
                case TRAILING -> subject + " is not valid JSON: data after the top-level value";
                case TOO_DEEP -> subject + " " + detail;
                case TOO_LONG -> subject + " is too long: " + detail;
                case DUPLICATE_KEY ->
                    "duplicate key '" + detail + "' in the " + subject + " (each key may appear once)";
            };
        }
    }
}
