package io.wakurelay.archive;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What an acknowledgement of the write stream ({@link CommittedBatch}) promises, and what it costs. In every mode a
 * message is visible to queries as soon as its batch is written; the modes differ in when the batch is acknowledged
 * and what it then survives (docs/archive.md, "Durability"; ADR 0016).
 */
public enum Durability {
    /**
     * Acknowledged once the batch is in RocksDB's write-ahead log, written to the OS and not fsynced: survives
     * {@code kill -9}, not a power loss. Acknowledgements come within milliseconds.
     */
    WAL("wal"),
    /** As {@link #WAL}, with the log fsynced at every commit: survives a power loss; every commit waits for the disk. */
    WAL_SYNC("wal-sync"),
    /**
     * No write-ahead log: a batch goes to the memtables only, and is acknowledged once a flush of every column family
     * together (an atomic flush, whose SST files RocksDB fsyncs) has written it. Survives {@code kill -9} and a power
     * loss, and writes each message to disk once instead of twice; acknowledgements wait for the next flush, at most
     * {@link RocksConfig#flushInterval()} plus the flush itself. Experimental: each flush leaves small SST files
     * that RocksDB does not merge, so their number grows with the time stored (ADR 0016, "Known limitation").
     */
    FLUSH("flush");

    private final String label;

    Durability(String label) {
        this.label = label;
    }

    /** The name flags and docs use: {@code wal}, {@code wal-sync} or {@code flush}. */
    public String label() {
        return label;
    }

    /** @throws IllegalArgumentException naming the accepted values */
    public static Durability parse(String text) {
        String wanted = text.trim().toLowerCase(Locale.ROOT);
        for (Durability d : values()) {
            if (d.label.equals(wanted)) {
                return d;
            }
        }
        throw new IllegalArgumentException("durability must be one of "
                + Arrays.stream(values()).map(Durability::label).collect(Collectors.joining(", ")) + ", was '" + text + "'");
    }
}
