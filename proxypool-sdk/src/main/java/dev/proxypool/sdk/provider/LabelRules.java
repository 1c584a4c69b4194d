package dev.proxypool.sdk.provider;

import java.util.regex.Pattern;

/** What a label fetched from an untrusted source may look like. */
final class LabelRules {

    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
    static final int MAX_VALUE = 256;

    private LabelRules() {}

    static boolean validKey(String key) {
        return key != null && KEY.matcher(key).matches();
    }

    static boolean validValue(String value) {
        if (value == null || value.length() > MAX_VALUE) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The key a fetched label is stored under: a feed's own {@code asn} is not trusted as the exit
     * network (docs/design.md#collection-pipeline, P9), so it is kept as {@code source_asn} for diagnostics only.
     */
    static String storedKey(String key) {
        return "asn".equals(key) ? "source_asn" : key;
    }
}
