package dev.proxypool.server.gateway;

/** Reason phrases for the statuses the gateway generates itself. */
final class StatusText {

    private StatusText() {}

    static String of(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 403 -> "Forbidden";
            case 407 -> "Proxy Authentication Required";
            case 408 -> "Request Timeout";
            case 429 -> "Too Many Requests";
            case 431 -> "Request Header Fields Too Large";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            default -> status < 500 ? "Client Error" : "Server Error";
        };
    }
}
