package dev.proxypool.server.fuzz;

import dev.proxypool.core.wire.HeadReader;
import dev.proxypool.server.gateway.GatewayConfig;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;

/**
 * The gateway's request-head parser ({@code RequestHead.read} over the shared {@link HeadReader}), reached
 * from this package through method handles: the parser is package-private by design and the fuzz
 * suite lives apart from the gateway's own tests. A renamed member fails every fuzz test at class
 * initialization, loudly, never by skipping.
 */
final class GatewayWire {

    private static final String PKG = "dev.proxypool.server.gateway.";
    private static final MethodHandle READ;
    private static final MethodHandle STATUS;
    private static final MethodHandle REASON;
    private static final MethodHandle METHOD;
    private static final MethodHandle HTTP11;
    private static final MethodHandle HEADERS;
    private static final MethodHandle TARGET;
    private static final MethodHandle FRAMING;
    private static final MethodHandle SIZE;
    private static final MethodHandle NAME;
    private static final MethodHandle VALUE;
    private static final MethodHandle HOST;
    private static final MethodHandle PORT;
    private static final MethodHandle PATH;
    private static final Class<?> WIRE_EXCEPTION;

    static {
        try {
            Class<?> reader = HeadReader.class;
            Class<?> head = Class.forName(PKG + "RequestHead");
            Class<?> fields = Class.forName(PKG + "HeaderFields");
            Class<?> target = Class.forName(PKG + "RequestTarget");
            WIRE_EXCEPTION = Class.forName(PKG + "WireException");
            MethodHandles.Lookup l = MethodHandles.privateLookupIn(head, MethodHandles.lookup());
            READ = l.findStatic(head, "read", MethodType.methodType(head, reader, GatewayConfig.class))
                    .asType(MethodType.methodType(Object.class, Object.class, GatewayConfig.class));
            STATUS = l.findVirtual(WIRE_EXCEPTION, "status", MethodType.methodType(int.class))
                    .asType(MethodType.methodType(int.class, Object.class));
            REASON = l.findVirtual(WIRE_EXCEPTION, "reason", MethodType.methodType(String.class))
                    .asType(MethodType.methodType(String.class, Object.class));
            METHOD = getter(l, head, "method", String.class);
            HTTP11 = getter(l, head, "http11", boolean.class);
            HEADERS = getter(l, head, "headers", fields);
            TARGET = getter(l, head, "target", target);
            FRAMING = getter(l, head, "framing", long.class);
            SIZE = l.findVirtual(fields, "size", MethodType.methodType(int.class))
                    .asType(MethodType.methodType(int.class, Object.class));
            NAME = l.findVirtual(fields, "name", MethodType.methodType(String.class, int.class))
                    .asType(MethodType.methodType(String.class, Object.class, int.class));
            VALUE = l.findVirtual(fields, "value", MethodType.methodType(String.class, int.class))
                    .asType(MethodType.methodType(String.class, Object.class, int.class));
            HOST = accessor(l, target, "host", String.class);
            PORT = accessor(l, target, "port", int.class);
            PATH = accessor(l, target, "path", String.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** What the parser made of one input. */
    sealed interface Result {}

    /** A request head the gateway would go on to route. */
    record Parsed(
            String method, boolean http11, String host, int port, String path, long framing, List<String[]> headers)
            implements Result {}

    /** Refused before routing: the gateway answers {@code status} with {@code X-ProxyPool-Error: reason}. */
    record Refused(int status, String reason, String message) implements Result {}

    /** The client closed (before a request, or inside one): the gateway closes without answering. */
    record Closed(String message) implements Result {}

    private GatewayWire() {}

    /**
     * Parses one head the way a connection does, over the bytes as they arrived. Exceptions other
     * than the two documented ones (the refusal and the input ending inside the head) propagate:
     * they are findings.
     */
    static Result parse(byte[] input, GatewayConfig cfg) throws Throwable {
        Object reader = HeadReader.over(input, 0, input.length);
        Object head;
        try {
            head = READ.invokeExact(reader, cfg);
        } catch (Throwable t) {
            if (WIRE_EXCEPTION.isInstance(t)) {
                return new Refused(
                        (int) STATUS.invokeExact((Object) t), (String) REASON.invokeExact((Object) t), t.getMessage());
            }
            if (t instanceof HeadReader.Incomplete) {
                return new Closed(t.getMessage());
            }
            throw t;
        }
        if (head == null) {
            return new Closed(null);
        }
        Object fields = HEADERS.invokeExact(head);
        int n = (int) SIZE.invokeExact(fields);
        List<String[]> headers = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            headers.add(new String[] {(String) NAME.invokeExact(fields, i), (String) VALUE.invokeExact(fields, i)});
        }
        Object target = TARGET.invokeExact(head);
        return new Parsed(
                (String) METHOD.invokeExact(head),
                (boolean) HTTP11.invokeExact(head),
                (String) HOST.invokeExact(target),
                (int) PORT.invokeExact(target),
                (String) PATH.invokeExact(target),
                (long) FRAMING.invokeExact(head),
                headers);
    }

    private static MethodHandle getter(MethodHandles.Lookup l, Class<?> owner, String name, Class<?> type)
            throws ReflectiveOperationException {
        Class<?> shown = type.isPrimitive() || type == String.class ? type : Object.class;
        return l.findGetter(owner, name, type).asType(MethodType.methodType(shown, Object.class));
    }

    private static MethodHandle accessor(MethodHandles.Lookup l, Class<?> owner, String name, Class<?> type)
            throws ReflectiveOperationException {
        return l.findVirtual(owner, name, MethodType.methodType(type))
                .asType(MethodType.methodType(type, Object.class));
    }
}
