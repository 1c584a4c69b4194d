package dev.proxypool.sdk.fuzz;

import dev.proxypool.sdk.provider.FetchContext;
import dev.proxypool.sdk.provider.FetchReport;
import dev.proxypool.sdk.provider.ProviderAdapter;
import dev.proxypool.sdk.provider.ProviderConfig;
import dev.proxypool.sdk.provider.ProviderEnvironment;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Proxy;

/**
 * A provider adapter's own fetch ({@code SourceFetch}: its format parser, its record mapper, its
 * report building and its failure handling) run over bytes held in memory instead of a file or an
 * HTTP answer, so 100,000 inputs cost seconds. Built from a real adapter: its {@code SourceFetch}'s
 * config, environment, mapper and format are taken as they are and only the byte source is
 * replaced (package-private types, reached through method handles). Not thread-safe.
 */
final class InMemoryFeed {

    private static final String PKG = "dev.proxypool.sdk.provider.";
    private static final Class<?> SOURCE_FETCH;
    private static final Class<?> BYTE_SOURCE;
    private static final MethodHandles.Lookup LOOKUP;
    private static final MethodHandle NEW_SOURCE_FETCH;
    private static final MethodHandle FETCH;
    private static final MethodHandle NEW_CAPPED;
    private static final MethodHandle NEW_OPENED;

    static {
        try {
            SOURCE_FETCH = Class.forName(PKG + "SourceFetch");
            BYTE_SOURCE = Class.forName(PKG + "ByteSource");
            Class<?> mapper = Class.forName(PKG + "CandidateMapper");
            Class<?> format = Class.forName(PKG + "SourceFetch$Format");
            Class<?> capped = Class.forName(PKG + "CappedInputStream");
            Class<?> opened = Class.forName(PKG + "ByteSource$Opened");
            Class<?> ticker = Class.forName("dev.proxypool.core.time.Ticker");
            LOOKUP = MethodHandles.privateLookupIn(SOURCE_FETCH, MethodHandles.lookup());
            NEW_SOURCE_FETCH = LOOKUP.findConstructor(
                    SOURCE_FETCH,
                    MethodType.methodType(
                            void.class, ProviderConfig.class, ProviderEnvironment.class, BYTE_SOURCE, mapper, format));
            FETCH = LOOKUP.findVirtual(
                            SOURCE_FETCH, "fetch", MethodType.methodType(FetchReport.class, FetchContext.class))
                    .asType(MethodType.methodType(FetchReport.class, Object.class, FetchContext.class));
            NEW_CAPPED = LOOKUP.findConstructor(
                    capped, MethodType.methodType(void.class, InputStream.class, long.class, ticker, long.class));
            NEW_OPENED = LOOKUP.findConstructor(opened, MethodType.methodType(void.class, capped, AutoCloseable.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object fetch;
    private byte[] next = new byte[0];

    /**
     * @param adapter  a built-in adapter created by the registry (its settings may name any path or url: never opened)
     * @param env      the environment whose ticker caps the in-memory stream
     * @param maxBytes the size cap, as the adapter's {@code maxBytes} would set it
     */
    InMemoryFeed(ProviderAdapter adapter, ProviderEnvironment env, long maxBytes) throws Throwable {
        Object real = field(adapter.getClass(), "fetch").invoke(adapter);
        Object source = Proxy.newProxyInstance(
                BYTE_SOURCE.getClassLoader(), new Class<?>[] {BYTE_SOURCE}, (proxy, method, args) -> {
                    if (!method.getName().equals("open")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    InputStream in = new ByteArrayInputStream(next);
                    Object capped = NEW_CAPPED.invoke(in, maxBytes, env.ticker(), (long) args[1]);
                    return NEW_OPENED.invoke(capped, (AutoCloseable) in);
                });
        this.fetch = NEW_SOURCE_FETCH.invoke(
                field(SOURCE_FETCH, "config").invoke(real),
                field(SOURCE_FETCH, "env").invoke(real),
                source,
                field(SOURCE_FETCH, "mapper").invoke(real),
                field(SOURCE_FETCH, "format").invoke(real));
    }

    /** One fetch of {@code answer}, through the adapter's whole parse-map-report path. */
    FetchReport fetch(byte[] answer, FetchContext ctx) throws Throwable {
        next = answer;
        return (FetchReport) FETCH.invokeExact(fetch, ctx);
    }

    private static MethodHandle field(Class<?> owner, String name) throws ReflectiveOperationException {
        java.lang.reflect.Field f = owner.getDeclaredField(name);
        return MethodHandles.privateLookupIn(owner, MethodHandles.lookup()).unreflectGetter(f);
    }
}
