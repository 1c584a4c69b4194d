package dev.proxypool.sdk.provider;

/**
 * Where a record was dropped, for diagnostics: the 1-based line of a line format (JSONL, text,
 * CSV) or the 1-based element number of a JSON list. Never the record's content, which may hold
 * secrets. A report keeps only the first {@link FetchReport#MAX_SAMPLES} samples.
 *
 * @param position the 1-based line or element number
 * @param reason   the {@link DropReason#code()}
 */
public record DropSample(long position, String reason) {}
