package dev.proxypool.server.gateway;

import dev.proxypool.testkit.LoopBlockingCheck;
import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class whose gateway event loops ({@code gateway-loop-*} threads) blocked while it ran:
 * a park, sleep, wait, contended monitor or file I/O of any length, a host name lookup, or a socket
 * call longer than {@link #SOCKET_THRESHOLD} (the NIO transport's own non-blocking reads and writes
 * are recorded too; none takes that long unless it waits for its peer). Register it after
 * {@link OnEventLoops}, so the loops exist only while it records.
 */
public final class NoLoopBlocking implements BeforeAllCallback, AfterAllCallback {

    static final Duration SOCKET_THRESHOLD = Duration.ofMillis(200);
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(NoLoopBlocking.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        LoopBlockingCheck check = LoopBlockingCheck.threads("gateway-loop-.*")
                .socketThreshold(SOCKET_THRESHOLD)
                // the JDK selector's wake-up lock, taken when another thread wakes the loop: the
                // selector's own hand-shake, not a blocking call of the gateway's
                .ignoreFrame("sun.nio.ch.EPollSelectorImpl.clearInterrupt")
                .start();
        context.getStore(NS).put(LoopBlockingCheck.class, check);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        context.getStore(NS)
                .get(LoopBlockingCheck.class, LoopBlockingCheck.class)
                .assertNoBlocking();
    }
}
