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
                Arguments.of("pipeline.echoUrl", (Supplier<?>) () -> d.toBuilder()
                        .echoUrl(URI.create("ftp://127.0.0.1/echo"))
                        .build()),
                Arguments.of("pipeline.echoUrl", (Supplier<?>) () -> d.toBuilder()
                        .echoUrl(URI.create("http://u:p@127.0.0.1/"))
                        .build()),
                Arguments.of("pipeline.echoUrl", (Supplier<?>)
                        () -> d.toBuilder().echoUrl(URI.create("/v1/echo")).build()),
                Arguments.of("pipeline.validationConcurrency", (Supplier<?>)
                        () -> d.toBuilder().concurrency(0).build()),
                Arguments.of("pipeline.validationConcurrency", (Supplier<?>)
                        () -> d.toBuilder().concurrency(10_001).build()),
                Arguments.of("queueCapacity", (Supplier<?>)
                        () -> d.toBuilder().queueCapacity(0).build()),
                Arguments.of("pipeline.validationTimeout", (Supplier<?>)
                        () -> d.toBuilder().timeout(Duration.ZERO).build()),
                Arguments.of("pipeline.validationTimeout", (Supplier<?>)
                        () -> d.toBuilder().timeout(Duration.ofHours(1)).build()),
                Arguments.of("extraDirectAddresses[1]", (Supplier<?>) () -> d.toBuilder()
                        .extraDirectAddresses(List.of("192.0.2.1", "my-host"))
                        .build()));
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
