package dev.proxypool.cli;

import io.helidon.json.JsonGenerator;
import java.io.StringWriter;
import java.util.function.Consumer;

/** JSON output for {@code --json}: written with the JSON library, so every string is escaped correctly. */
final class JsonText {

    private JsonText() {
    }

    static String write(Consumer<JsonGenerator> body) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = JsonGenerator.create(out)) {
            body.accept(g);
        }
        return out.toString();
    }

    /** Writes {@code key: value}, or {@code key: null} for a null value. */
    static void stringOrNull(JsonGenerator g, String key, String value) {
        if (value == null) {
            g.writeKey(key).writeNull();
        } else {
            g.write(key, value);
        }
    }
}
