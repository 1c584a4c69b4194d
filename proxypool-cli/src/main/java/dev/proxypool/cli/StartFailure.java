package dev.proxypool.cli;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;

/**
 * Turns a failed server start into one line for people. A port already in use is named together
 * with the way to choose another: the command-line flag ({@code demo}) or the config key and its
 * environment variable ({@code serve}).
 */
final class StartFailure {

    /** How a command lets the user change its two ports. */
    record PortNames(String gateway, String api) {
        static final PortNames DEMO_FLAGS = new PortNames("--gateway-port", "--api-port");
        static final PortNames CONFIG_KEYS = new PortNames(
                "server.gatewayPort in the config (or PROXYPOOL_SERVER_GATEWAYPORT)",
                "server.apiPort in the config (or PROXYPOOL_SERVER_APIPORT)");
    }

    private StartFailure() {}

    /** The demo's message: the flags. */
    static String explain(RuntimeException e, int gatewayPort, int apiPort) {
        return explain(e, "127.0.0.1", gatewayPort, apiPort, PortNames.DEMO_FLAGS);
    }

    /** The message for {@code e}; for a port in use, which port and what to change. */
    static String explain(RuntimeException e, String host, int gatewayPort, int apiPort, PortNames names) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (!portInUse(e)) {
            return message;
        }
        StringBuilder sb = new StringBuilder();
        if (gatewayPort > 0 && !free(host, gatewayPort)) {
            sb.append("gateway port ")
                    .append(gatewayPort)
                    .append(" is already in use; choose another with ")
                    .append(names.gateway());
        }
        if (apiPort > 0 && !free(host, apiPort)) {
            sb.append(sb.isEmpty() ? "" : "; ")
                    .append("API port ")
                    .append(apiPort)
                    .append(" is already in use; choose another with ")
                    .append(names.api());
        }
        return sb.isEmpty()
                ? message + " (a port is already in use; choose others with " + names.gateway() + " and " + names.api()
                        + ")"
                : sb.toString();
    }

    private static boolean portInUse(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException
                    || (t.getMessage() != null && t.getMessage().contains("in use"))) {
                return true;
            }
        }
        return false;
    }

    private static boolean free(String host, int port) {
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return true;
        }
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(address, port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
