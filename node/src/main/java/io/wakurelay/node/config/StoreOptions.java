package io.wakurelay.node.config;

import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.CoreConfig;
import io.wakurelay.archive.Durability;
import io.wakurelay.archive.RetentionPolicy;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.services.store.StoreLimits;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The archive and the Store queries it answers (nwaku's names where nwaku has the option), a picocli mixin of
 * {@link NodeOptions}: on or off, where it is ({@link StoreLocation}), its retention and durability, RocksDB's and
 * PostgreSQL's tuning, and the limits of Store queries.
 */
public final class StoreOptions {
    @Option(names = "--store", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true", showDefaultValue = CommandLine.Help.Visibility.ALWAYS, description = "archive messages (in RocksDB or PostgreSQL, as --store-message-db-url says)")
    boolean store;

    @Option(names = "--store-message-db-url", paramLabel = "URL",
            description = "where the archive is (nwaku's flag): empty or rocksdb://<dir> for the embedded RocksDB store "
                    + "(empty: <data-dir>/store), postgres://user:password@host:port/database for PostgreSQL with nwaku's "
                    + "schema, which a fleet of store nodes may share (docs/archive.md); the password may instead come from "
                    + "--store-message-db-password-file or WAKURELAY_STORE_MESSAGE_DB_PASSWORD; sqlite:// is not supported")
    String storeMessageDbUrl;

    @Option(names = "--store-message-db-password-file", paramLabel = "FILE",
            description = "file whose first line is the PostgreSQL password, when the URL has none (it is never logged)")
    Path storeMessageDbPasswordFile;

    @Option(names = "--store-max-num-db-connections", paramLabel = "N",
            description = "PostgreSQL: connections of the node's pool (nwaku's flag): one writer, one for housekeeping, the "
                    + "rest for Store queries (an open page holds one; keep it above --store-max-queries)")
    int storeMaxNumDbConnections;

    @Option(names = "--store-message-db-statement-timeout", paramLabel = "DURATION",
            description = "PostgreSQL: the longest one statement may run (the server's statement_timeout); a write that "
                    + "times out is retried, a query answers 500")
    String storeMessageDbStatementTimeout;

    @Option(names = "--store-message-db-connect-timeout", paramLabel = "DURATION",
            description = "PostgreSQL: how long a write or a query waits for a connection from the pool, and a new "
                    + "connection for the server")
    String storeMessageDbConnectTimeout;

    @Option(names = "--store-message-db-start-wait", paramLabel = "DURATION",
            description = "PostgreSQL: how long the node retries a database that is down at start before it exits "
                    + "(0: exit at once)")
    String storeMessageDbStartWait;

    @Option(names = "--store-message-retention-policy", paramLabel = "POLICY",
            description = "none, time:<seconds>, capacity:<count> or size:<n>[KB|MB|GB]")
    String retentionPolicy;

    @Option(names = "--store-durability", paramLabel = "MODE",
            description = "when a written batch counts as stored: wal (in the write-ahead log: survives kill -9), wal-sync "
                    + "(the log fsynced at every batch: survives power loss, slower) or flush (no log; once a flush wrote "
                    + "it to disk: survives power loss, writes each message once, acknowledged up to "
                    + "--store-flush-interval later; see docs/adr/0016)")
    String storeDurability;

    @Option(names = "--store-flush-interval", paramLabel = "DURATION",
            description = "with --store-durability flush: the longest a written batch waits before the flush that "
                    + "acknowledges it is started")
    String storeFlushInterval;

    @Option(names = "--store-cache-size", paramLabel = "SIZE",
            description = "RocksDB block cache, which the memtables are charged to (at least twice the write buffer)")
    String storeCacheSize;

    @Option(names = "--store-write-buffer-size", paramLabel = "SIZE",
            description = "RocksDB memtable memory: above it the largest memtable is flushed; while flushes lag, at "
                    + "most about 2.25 times it")
    String storeWriteBufferSize;

    @Option(names = "--store-write-rate-limit", paramLabel = "SIZE",
            description = "bytes per second RocksDB may write to disk in flushes and compactions, to leave the disk to "
                    + "others (0: no limit); when flushes fall behind, writes stall and the archive slows its peers")
    String storeWriteRateLimit;

    @Option(names = "--store-direct-io", paramLabel = "BOOL", arity = "0..1", fallbackValue = "true",
            showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
            description = "RocksDB's flushes and compactions write with direct I/O where the data directory's file "
                    + "system takes it (false: through the page cache; docs/adr/0077)")
    boolean storeDirectIo;

    @Option(names = "--store-max-queries", paramLabel = "N",
            description = "Store queries answered at once; more are refused (429; REST adds Retry-After)")
    int storeMaxQueries;

    @Option(names = "--store-max-page-bytes", paramLabel = "SIZE",
            description = "bytes of one Store page with data, over REST and Store v3 alike (at least 256KiB); a page "
                    + "that would pass it ends early with a cursor (REST: its first message is always in; Store v3: the "
                    + "encoded response stays within it, and js-waku reads at most 4MiB)")
    String storeMaxPageBytes;

    /**
     * The archive; null with {@code --store=false}, and without relay (nothing reaches an archive then: an edge node
     * asks --storenode, as nwaku's edge nodes run without store).
     *
     * @param timestampWindow what the archive takes of a message's timestamp ({@code --max-clock-drift})
     * @param environment     where the PostgreSQL password may be ({@value StoreLocation#PASSWORD_VARIABLE})
     */
    ArchiveConfig archive(Path dataDir, boolean relay, Duration timestampWindow, Map<String, String> environment) {
        RocksConfig embedded = !store ? null : NodeOptions.option("store options",
                () -> RocksConfig.DEFAULTS.toBuilder()
                        .dataDir(dataDir.resolve("store"))
                        .core(CoreConfig.DEFAULTS.toBuilder()
                                .retention(RetentionPolicy.parse(retentionPolicy))
                                .timestampWindow(timestampWindow).build())
                        .durability(Durability.parse(storeDurability))
                        .flushInterval(DurationText.parse(storeFlushInterval))
                        .blockCacheBytes(ByteSize.parse(storeCacheSize))
                        .writeBufferBytes(ByteSize.parse(storeWriteBufferSize))
                        .writeRateBytes(ByteSize.parse(storeWriteRateLimit))
                        .directIo(storeDirectIo)
                        .build());
        return embedded == null || !relay ? null
                : NodeOptions.option("--store-message-db-url", () -> StoreLocation.apply(this, environment, embedded));
    }

    /** The limits of Store queries, whichever protocol they come by. */
    StoreLimits limits() {
        return NodeOptions.option("--store-max-queries/--store-max-page-bytes",
                () -> new StoreLimits(storeMaxQueries, ByteSize.parse(storeMaxPageBytes)));
    }
}
