package dev.proxypool.server.console;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.staticcontent.ClasspathHandlerConfig;
import io.helidon.webserver.staticcontent.StaticContentFeature;

/**
 * The operations console (docs/console.md): static HTML/CSS/JS from the classpath
 * ({@code console/} in this module's resources) served at {@value #PATH} on the REST listener by
 * Helidon's static-content handler (content types, {@code ETag}/{@code Last-Modified},
 * conditional requests). The page talks only to the admin API with the admin token the operator
 * types in; it holds no secret itself, so serving it needs no authentication.
 *
 * <p>Every answer under {@value #PATH} carries a strict {@code Content-Security-Policy} (scripts,
 * styles and fetches from this origin only, no inline code, no framing, no form posts elsewhere),
 * {@code X-Content-Type-Options: nosniff}, {@code Referrer-Policy: no-referrer} and
 * {@code Cache-Control: no-cache} (revalidate each time, so an upgraded server never runs an old
 * script against a new API).
 */
public final class Console {

    /** Where the console is served. */
    public static final String PATH = "/console";

    /** The policy sent with every console answer. */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    private Console() {}

    /** Registers the console on {@code routing}: {@code /console} redirects to {@code /console/}. */
    public static void register(HttpRouting.Builder routing) {
        routing.get(PATH, (req, res) -> {
            res.status(Status.MOVED_PERMANENTLY_301);
            res.header(HeaderNames.LOCATION, PATH + "/");
            res.send();
        });
        routing.any(PATH + "/*", (req, res) -> {
            res.header(HeaderNames.create("Content-Security-Policy"), CONTENT_SECURITY_POLICY);
            res.header(HeaderNames.create("X-Content-Type-Options"), "nosniff");
            res.header(HeaderNames.create("Referrer-Policy"), "no-referrer");
            res.header(HeaderNames.create("X-Frame-Options"), "DENY");
            res.header(HeaderNames.CACHE_CONTROL, "no-cache");
            res.next();
        });
        routing.register(
                PATH,
                StaticContentFeature.createService(ClasspathHandlerConfig.builder()
                        .location("console")
                        .welcome("index.html")
                        .build()));
    }
}
