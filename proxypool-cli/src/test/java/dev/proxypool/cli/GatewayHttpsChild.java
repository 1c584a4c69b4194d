package dev.proxypool.cli;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.Selection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The child JVM of {@link JdkClientThroughGatewayTest}: a plain application, started without
 * {@code -Djdk.http.auth.tunneling.disabledSchemes}, that leases a ProxyPool gateway (with client
 * auth) from an embedded pool and sends an HTTPS request through it with the SDK's client builder.
 * Prints {@code property-at-start=...} and {@code status=...}; exit 0 only on a 200.
 *
 * <p>Arguments: gateway port, username, secret, HTTPS URL, work directory.
 */
public final class GatewayHttpsChild {

    private GatewayHttpsChild() {}

    public static void main(String[] args) throws Exception {
        // what the JVM was started with: the test requires "unset", the JDK's own default (Basic disabled)
        System.out.println("property-at-start=" + System.getProperty("jdk.http.auth.tunneling.disabledSchemes"));
        int gatewayPort = Integer.parseInt(args[0]);
        URI target = URI.create(args[3]);
        Path work = Files.createDirectories(Path.of(args[4]));
        Path config = work.resolve("proxypool.yaml");
        Files.writeString(config, "health: { active: { enabled: false } }\n");
        Proxy gateway = Proxy.builder(new ProxyKey(Protocol.HTTP, "127.0.0.1", gatewayPort, CredentialRef.of("gw")))
                .build();
        try (ProxyPool pool = ProxyPool.builder()
                .config(config)
                .proxies(List.of(gateway))
                .credential("gw", args[1], args[2])
                .background(false)
                .build()) {
            try (Lease lease = pool.acquire(Selection.forUri(target))) {
                HttpClient client = pool.httpClientBuilder(lease)
                        .sslContext(trustAll())
                        .connectTimeout(Duration.ofSeconds(5))
                        .build();
                HttpResponse<String> r = client.send(
                        HttpRequest.newBuilder(target)
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                System.out.println("status=" + r.statusCode());
                lease.succeeded(Duration.ofMillis(1));
                System.exit(r.statusCode() == 200 ? 0 : 1);
            }
        } catch (Exception e) {
            System.out.println("failed=" + e);
            System.exit(1);
        }
    }

    /** The test origin's certificate is self-signed: trust it (the test is about proxy auth, not PKI). */
    private static SSLContext trustAll() throws Exception {
        TrustManager[] any = {
            new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {}

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {}

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }
        };
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, any, null);
        return ctx;
    }
}
