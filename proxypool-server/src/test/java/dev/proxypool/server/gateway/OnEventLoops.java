package dev.proxypool.server.gateway;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class's gateways on the event-loop data plane: sets the temporary internal switch
 * ({@code proxypool.gateway.loops}) before the class's own {@code @BeforeAll} methods and restores it
 * after the class. For the subclasses that run the wire suites on the event loops while the
 * thread-per-connection listener is still the default.
 */
public final class OnEventLoops implements BeforeAllCallback, AfterAllCallback {

    private static final String SWITCH = "proxypool.gateway.loops";
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(OnEventLoops.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NS).put(SWITCH, String.valueOf(System.getProperty(SWITCH)));
        System.setProperty(SWITCH, "true");
    }

    @Override
    public void afterAll(ExtensionContext context) {
        String before = context.getStore(NS).get(SWITCH, String.class);
        if (before == null || before.equals("null")) {
            System.clearProperty(SWITCH);
        } else {
            System.setProperty(SWITCH, before);
        }
    }
}
