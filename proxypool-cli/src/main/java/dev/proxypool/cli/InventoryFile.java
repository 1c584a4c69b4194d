package dev.proxypool.cli;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.credentials.InlineCredentials;
import dev.proxypool.sdk.provider.FetchContext;
import dev.proxypool.sdk.provider.FetchReport;
import dev.proxypool.sdk.provider.ProviderAdapter;
import dev.proxypool.sdk.provider.ProviderConfig;
import dev.proxypool.sdk.provider.ProviderEnvironment;
import dev.proxypool.sdk.provider.ProviderRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A candidate file for {@code proxypool validate}, read by the same provider adapters the pipeline
 * uses ({@code jsonl_inventory}, {@code text_list}), so parsing rules, drops and their reasons are
 * the same as in a running server. The format is taken from the extension ({@code .jsonl},
 * {@code .ndjson}, {@code .json} → JSONL; {@code .txt}, {@code .list}, {@code .lst} → text) or, for
 * any other name, from the first line that is not blank or a comment ({@code {} → JSONL).
 */
final class InventoryFile {

    /** The file formats of docs/configuration.md#file-formats. */
    enum Format {
        JSONL("jsonl_inventory"),
        TEXT("text_list");

        final String adapterType;

        Format(String adapterType) {
            this.adapterType = adapterType;
        }

        static Format parse(String s) {
            return switch (s.toLowerCase(Locale.ROOT)) {
                case "jsonl" -> JSONL;
                case "text" -> TEXT;
                default -> throw new IllegalArgumentException("--format must be auto, jsonl or text, got '" + s + "'");
            };
        }
    }

    /** The file cannot be used; the message is one line for people. */
    static final class Unreadable extends Exception {
        Unreadable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The adapters read into memory; 1 GiB is the adapters' own cap. */
    static final long MAX_BYTES = 1024L * 1024 * 1024;

    private InventoryFile() {}

    /** Checks that {@code file} is a readable regular file; returns its size. */
    static long requireReadable(Path file) throws Unreadable {
        try {
            if (!Files.isRegularFile(file)) {
                throw new Unreadable(
                        "cannot read " + file + ": " + (Files.exists(file) ? "not a regular file" : "no such file"),
                        null);
            }
            long size = Files.size(file);
            Files.newInputStream(file).close(); // permission check with a clear message
            return size;
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    static Format detect(Path file) throws Unreadable {
        requireReadable(file);
        String name = String.valueOf(file.getFileName()).toLowerCase(Locale.ROOT);
        if (name.endsWith(".jsonl") || name.endsWith(".ndjson") || name.endsWith(".json")) {
            return Format.JSONL;
        }
        if (name.endsWith(".txt") || name.endsWith(".list") || name.endsWith(".lst")) {
            return Format.TEXT;
        }
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                String s = line.strip();
                if (!s.isEmpty() && !s.startsWith("#")) {
                    return s.startsWith("{") ? Format.JSONL : Format.TEXT;
                }
            }
            return Format.TEXT;
        } catch (IOException e) {
            throw unreadable(file, e);
        }
    }

    /**
     * Parses {@code file}: the candidates, and the records dropped by reason.
     *
     * @param defaultProtocol the protocol of {@code host:port} lines
     * @param inline          receives {@code user:pass@} credentials of text lines, under derived refs
     */
    static FetchReport read(Path file, Format format, Protocol defaultProtocol, InlineCredentials inline)
            throws Unreadable {
        long size = requireReadable(file);
        if (size >= MAX_BYTES) {
            throw new Unreadable(
                    "cannot read " + file + ": " + size + " bytes is over the 1 GiB limit; split it", null);
        }
        Path abs = file.toAbsolutePath();
        Map<String, String> settings = new HashMap<>();
        settings.put("path", abs.toString());
        settings.put("maxBytes", Long.toString(size + 1));
        if (format == Format.TEXT) {
            settings.put("protocol", defaultProtocol.wireName());
        }
        ProviderEnvironment env =
                new ProviderEnvironment(Map.of(), abs.getParent(), Clocks.wall(), Clocks.monotonic(), inline);
        ProviderAdapter adapter = ProviderRegistry.standard(Set.of(format.adapterType))
                .create(ProviderConfig.of("validate", format.adapterType, settings), env);
        FetchReport report = adapter.fetch(new FetchContext("validate", Map.of(), Duration.ofMinutes(10)));
        if (report.outcome() instanceof FetchOutcome.Error e) {
            throw new Unreadable("cannot read " + file + ": " + e.detail(), null);
        }
        return report;
    }

    private static Unreadable unreadable(Path file, IOException e) {
        String why = e instanceof NoSuchFileException
                ? "no such file"
                : e instanceof AccessDeniedException
                        ? "permission denied"
                        : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new Unreadable("cannot read " + file + ": " + why, e);
    }
}
