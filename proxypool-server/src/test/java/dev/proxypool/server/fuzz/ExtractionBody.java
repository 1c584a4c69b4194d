package dev.proxypool.server.fuzz;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.Fulfillment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The Distribution API's request-body reader ({@code ExtractionJson.parse} and the canonical form
 * idempotency fingerprints), reached through method handles because it is package-private; a
 * renamed member fails the fuzz tests at class initialization.
 */
final class ExtractionBody {

    private static final String PKG = "dev.proxypool.server.api.distribution.";
    private static final MethodHandle PARSE;
    private static final MethodHandle CANONICAL;
    private static final MethodHandle COUNT;
    private static final MethodHandle FULFILLMENT;
    private static final MethodHandle FILTER;
    private static final MethodHandle MIN_TTL;
    private static final Class<?> INVALID;

    static {
        try {
            Class<?> json = Class.forName(PKG + "ExtractionJson");
            Class<?> call = Class.forName(PKG + "ParsedExtraction");
            INVALID = Class.forName(PKG + "InvalidRequestException");
            MethodHandles.Lookup l = MethodHandles.privateLookupIn(json, MethodHandles.lookup());
            PARSE = l.findStatic(json, "parse", MethodType.methodType(call, byte[].class, int.class))
                    .asType(MethodType.methodType(Object.class, byte[].class, int.class));
            CANONICAL = l.findStatic(json, "canonical", MethodType.methodType(String.class, call))
                    .asType(MethodType.methodType(String.class, Object.class));
            COUNT = accessor(l, call, "count", int.class);
            FULFILLMENT = accessor(l, call, "fulfillment", Fulfillment.class);
            FILTER = accessor(l, call, "filter", ExtractionFilter.class);
            MIN_TTL = accessor(l, call, "minRemainingTtlSeconds", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** What the reader made of one body. */
    sealed interface Result {}

    /** A valid call, with its canonical form. */
    record Call(
            int count, Fulfillment fulfillment, ExtractionFilter filter, long minRemainingTtlSeconds, String canonical)
            implements Result {}

    /** {@code 400 invalid_request} with this message. */
    record Invalid(String message) implements Result {}

    private ExtractionBody() {}

    /** Parses a body; exceptions other than the documented refusal propagate (they would be a 500). */
    static Result parse(byte[] body, int maxCount) throws Throwable {
        Object call;
        try {
            call = PARSE.invokeExact(body, maxCount);
        } catch (Throwable t) {
            if (INVALID.isInstance(t)) {
                return new Invalid(t.getMessage());
            }
            throw t;
        }
        return new Call(
                (int) COUNT.invokeExact(call),
                (Fulfillment) FULFILLMENT.invokeExact(call),
                (ExtractionFilter) FILTER.invokeExact(call),
                (long) MIN_TTL.invokeExact(call),
                (String) CANONICAL.invokeExact(call));
    }

    private static MethodHandle accessor(MethodHandles.Lookup l, Class<?> owner, String name, Class<?> type)
            throws ReflectiveOperationException {
        return l.findVirtual(owner, name, MethodType.methodType(type))
                .asType(MethodType.methodType(type, Object.class));
    }
}
