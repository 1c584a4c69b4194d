package dev.proxypool.sdk.provider;

import java.util.Map;

/** One source record before normalization, whatever its format. */
interface RawRecord {

    /**
     * The scalar at {@code field} as text, or {@code null} when absent, empty or JSON null.
     *
     * @throws Drop with {@code ifStructured} when the field holds an object or array
     */
    String scalar(String field, DropReason ifStructured) throws Drop;

    /**
     * The object of labels at {@code field}, or {@code null} when absent.
     *
     * @throws Drop {@link DropReason#INVALID_LABEL} when it is not an object of scalars
     */
    Map<String, String> labelObject(String field) throws Drop;

    /** A record of named text values (CSV row, parsed text line); empty values count as absent. */
    static RawRecord ofMap(Map<String, String> values) {
        return new RawRecord() {
            @Override
            public String scalar(String field, DropReason ifStructured) {
                String v = values.get(field);
                return v == null || v.isBlank() ? null : v.trim();
            }

            @Override
            public Map<String, String> labelObject(String field) {
                return null;
            }
        };
    }
}
