package dev.proxypool.core.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SubnetsTest {

    @ParameterizedTest(name = "{0} ~ {1}")
    @CsvSource({
        "10.0.0.1, 10.0.0.200",
        "203.0.113.7, 203.0.113.0",
        "2001:db8:1::1, 2001:DB8:1:ffff::",
        "2001:db8:1:2:3:4:5:6, 2001:0db8:0001::",
        "'[2001:db8:1::1]', 2001:db8:1::2",
        "fe80::1%eth0, fe80::2",
        "::ffff:10.0.0.1, 10.0.0.9",
        "::ffff:a00:1, 10.0.0.1",
        "::, ::1",
        "1::, 1:0:0::5",
    })
    void sameSubnet(String a, String b) {
        assertEquals(Subnets.of(a), Subnets.of(b));
    }

    @ParameterizedTest(name = "{0} !~ {1}")
    @CsvSource({
        "10.0.0.1, 10.0.1.1",
        "10.0.0.1, 11.0.0.1",
        "2001:db8:1::1, 2001:db8:2::1",
        "2001:db8:1::1, 2001:db9:1::1",
        "::a00:1, 10.0.0.1",
        "0.0.1.0, ::1",
    })
    void differentSubnet(String a, String b) {
        assertNotEquals(Subnets.of(a), Subnets.of(b));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "256.0.0.1",
                "1.2.3",
                "1.2.3.4.5",
                "01.2.3.4",
                "1.2.3.4 ",
                "1::2::3",
                "gggg::",
                "example.com",
                "1:2:3:4:5:6:7:8:9",
                "1:2:3:4:5:6:7",
                ":1:2:3:4:5:6:7",
                "1::2:3:4:5:6:7:8",
                "12345::",
                "::ffff:1.2.3.256",
                "1.2.3.4::",
                "localhost"
            })
    void rejected(String bad) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Subnets.of(bad));
        assertEquals("exitIp '" + bad + "' is not an IPv4 or IPv6 address", e.getMessage());
    }

    @Test
    void emptyIsNoSubnet() {
        assertEquals(Subnets.NONE, Subnets.of(""));
    }
}
