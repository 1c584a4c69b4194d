package dev.proxypool.cli;

import dev.proxypool.sdk.remote.DistributionClient;
import dev.proxypool.sdk.tls.PemFiles;
import dev.proxypool.sdk.tls.TlsFileException;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Option;

/**
 * {@code --cacert FILE}, shared by the commands that call the REST API ({@code extract},
 * {@code bench extraction}, {@code admin ...}): PEM certificates to trust for an {@code https://}
 * {@code --api} instead of the JVM's default trust store. Errors start with {@code --cacert: }.
 */
public final class CaCertOption {

    @Option(
            names = "--cacert",
            paramLabel = "FILE",
            description = "PEM certificate(s) to trust for an https:// --api (a private CA or the server's own"
                    + " certificate) instead of the JVM's default trust store.")
    Path cacert;

    /** The context trusting the file, or null without {@code --cacert}; an unusable file is an IllegalArgumentException. */
    public SSLContext sslContext() {
        if (cacert == null) {
            return null;
        }
        try {
            return PemFiles.trusting(cacert);
        } catch (TlsFileException e) {
            throw new IllegalArgumentException("--cacert: " + e.getMessage(), e);
        }
    }

    /** Applies {@code --cacert}, when given, to a Distribution client. */
    DistributionClient.Builder applyTo(DistributionClient.Builder b) {
        SSLContext ctx = sslContext();
        return ctx == null ? b : b.sslContext(ctx);
    }
}
