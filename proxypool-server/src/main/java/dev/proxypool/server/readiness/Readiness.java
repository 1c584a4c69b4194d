package dev.proxypool.server.readiness;

import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;
import java.util.function.Supplier;

/** A readiness check named {@code name} whose answer {@code call} computes on each health request. */
public final class Readiness {

    private Readiness() {}

    public static HealthCheck of(String name, Supplier<HealthCheckResponse> call) {
        return new HealthCheck() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public HealthCheckType type() {
                return HealthCheckType.READINESS;
            }

            @Override
            public HealthCheckResponse call() {
                return call.get();
            }
        };
    }
}
