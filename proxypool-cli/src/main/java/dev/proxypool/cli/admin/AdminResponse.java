package dev.proxypool.cli.admin;

import dev.proxypool.server.persistence.JsonTree;
import java.util.Map;

/** One answer of the admin API: the status and the body text exactly as the server sent it. */
record AdminResponse(int status, String body) {

    boolean ok() {
        return status >= 200 && status < 300;
    }

    /** The body as a JSON object tree (numbers as BigDecimal); a body that is no JSON object is an error (1). */
    Map<String, Object> json() {
        try {
            return JsonTree.parseObject(body);
        } catch (RuntimeException e) {
            throw new AdminFailure(AdminExit.ERROR, status + ": the answer is not a JSON object: " + excerpt(body), e);
        }
    }

    /** This answer when it is 2xx, else an {@link AdminFailure}: {@code 409 conflict: <server message>}. */
    AdminResponse expectOk() {
        if (ok()) {
            return this;
        }
        throw new AdminFailure(AdminExit.ofStatus(status), problem(), null);
    }

    /** {@code <status> <error>: <message>} from the server's error body, or the status and a body excerpt. */
    String problem() {
        try {
            Map<String, Object> m = JsonTree.parseObject(body);
            Object code = m.get("error");
            Object message = m.get("message");
            if (code instanceof String c) {
                return status + " " + c + (message instanceof String s && !s.isBlank() ? ": " + firstLine(s) : "");
            }
        } catch (RuntimeException notJson) {
            // fall through: show what came
        }
        return body.isBlank() ? status + " (empty answer)" : status + ": " + excerpt(body);
    }

    private static String excerpt(String s) {
        String one = firstLine(s);
        return one.length() > 200 ? one.substring(0, 200) + "..." : one;
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }
}
