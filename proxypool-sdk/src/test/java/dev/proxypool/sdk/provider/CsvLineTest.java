package dev.proxypool.sdk.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class CsvLineTest {

    @Test
    void splitsQuotedAndPlainFields() {
        assertEquals(List.of("a", "b", "c"), CsvLine.split("a,b,c", ','));
        assertEquals(List.of("a", "", ""), CsvLine.split("a,,", ','));
        assertEquals(List.of(""), CsvLine.split("", ','));
        assertEquals(List.of("a,b", "say \"hi\"", "x"), CsvLine.split("\"a,b\",\"say \"\"hi\"\"\",x", ','));
        assertEquals(List.of("a", "b"), CsvLine.split(" a , \"b\" ", ','));
        assertEquals(List.of("", "b"), CsvLine.split("\"\",b", ','));
    }

    @Test
    void brokenLinesAreNull() {
        assertNull(CsvLine.split("\"unclosed,b", ','), "unclosed quote");
        assertNull(CsvLine.split("\"a\"b,c", ','), "text after the closing quote");
        assertNull(CsvLine.split("a\"b,c", ','), "quote inside an unquoted field");
    }
}
