package dev.proxypool.sdk.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ProxyPoolConfig;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Defaults from docs/configuration.md#pipeline and refusals that name the key. */
class ValidatorSettingsTest {

    static Stream<Arguments> badSettings() {
        ValidatorSettings d = ValidatorSettings.DEFAULTS;
        return Stream.of(
                Arguments.of("pipeline.echoUrl", (Supplier<?>) () -> d.withEchoUrl(URI.create("ftp://127.0.0.1/echo"))),
                Arguments.of(
                        "pipeline.echoUrl", (Supplier<?>) () -> d.withEchoUrl(URI.create("http://u:p@127.0.0.1/"))),
                Arguments.of("pipeline.echoUrl", (Supplier<?>) () -> d.withEchoUrl(URI.create("/v1/echo"))),
                Arguments.of("pipeline.validationConcurrency", (Supplier<?>) () -> d.withConcurrency(0)),
                Arguments.of("pipeline.validationConcurrency", (Supplier<?>) () -> d.withConcurrency(10_001)),
                Arguments.of("queueCapacity", (Supplier<?>) () -> d.withQueueCapacity(0)),
                Arguments.of("pipeline.validationTimeout", (Supplier<?>) () -> d.withTimeout(Duration.ZERO)),
                Arguments.of("pipeline.validationTimeout", (Supplier<?>) () -> d.withTimeout(Duration.ofHours(1))),
                Arguments.of("extraDirectAddresses[1]", (Supplier<?>)
                        () -> d.withExtraDirectAddresses(List.of("192.0.2.1", "my-host"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badSettings")
    void badValuesAreRefusedWithTheirKey(String key, Supplier<?> make) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, make::get);
        assertTrue(e.getMessage().contains(key), e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void defaultsFollowTheSpec() {
        ValidatorSettings d = ValidatorSettings.DEFAULTS;
        assertEquals(URI.create("http://127.0.0.1:9090/v1/echo"), d.echoUrl());
        assertEquals(100, d.concurrency());
        assertEquals(200, d.queueCapacity());
        assertEquals(Duration.ofSeconds(8), d.timeout());
        ValidatorSettings fromConfig = ValidatorSettings.from(ProxyPoolConfig.Pipeline.DEFAULTS);
        assertEquals(d, fromConfig);
    }
}
