package dev.proxypool.sdk.provider;

import dev.proxypool.sdk.credentials.SessionLogin;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A login template ({@code customer-{user}-cc-{country}-sessid-{session}}): literal text and
 * {@code {name}} placeholders, parsed once at config load.
 */
final class LoginTemplate {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z][A-Za-z0-9_]{0,63})}");

    private sealed interface Piece {}

    private record Literal(String text) implements Piece {}

    private record Slot(String name) implements Piece {}

    private final List<Piece> pieces;
    private final Set<String> names;

    private LoginTemplate(List<Piece> pieces, Set<String> names) {
        this.pieces = pieces;
        this.names = names;
    }

    /** Parses {@code text}; a stray brace or a control character is refused, naming {@code key}. */
    static LoginTemplate parse(String key, String text) {
        List<Piece> pieces = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        Matcher m = PLACEHOLDER.matcher(text);
        int at = 0;
        while (m.find()) {
            literal(key, text.substring(at, m.start()), pieces);
            pieces.add(new Slot(m.group(1)));
            names.add(m.group(1));
            at = m.end();
        }
        literal(key, text.substring(at), pieces);
        return new LoginTemplate(List.copyOf(pieces), Set.copyOf(names));
    }

    private static void literal(String key, String s, List<Piece> pieces) {
        if (s.isEmpty()) {
            return;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '{' || c == '}' || c == ':' || c < 0x20 || c == 0x7F) {
                throw new IllegalArgumentException(key + ": '" + c
                        + "' is not allowed outside a placeholder ({user}, {session}, {lifetime}, {country}, ...)");
            }
        }
        pieces.add(new Literal(s));
    }

    Set<String> placeholders() {
        return names;
    }

    /**
     * The parts of one session's login: {@code {user}}/{@code {password}} stay the account's, every
     * other placeholder is filled from {@code values} (which holds each one, checked by the caller).
     */
    List<SessionLogin.Part> fill(Map<String, String> values) {
        List<SessionLogin.Part> out = new ArrayList<>(pieces.size());
        StringBuilder text = new StringBuilder();
        for (Piece p : pieces) {
            switch (p) {
                case Literal l -> text.append(l.text());
                case Slot s
                when s.name().equals("user") || s.name().equals("password") -> {
                    if (!text.isEmpty()) {
                        out.add(new SessionLogin.Text(text.toString()));
                        text.setLength(0);
                    }
                    out.add(
                            s.name().equals("user")
                                    ? new SessionLogin.AccountUser()
                                    : new SessionLogin.AccountPassword());
                }
                case Slot s -> text.append(values.get(s.name()));
            }
        }
        if (!text.isEmpty()) {
            out.add(new SessionLogin.Text(text.toString()));
        }
        return out;
    }
}
