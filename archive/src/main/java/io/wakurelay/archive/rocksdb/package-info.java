/**
 * The embedded RocksDB archive, the default backend: messages keyed by (timestamp, hash), written in batches with
 * backpressure, queried as Store v3 pages, pruned by a retention policy (docs/archive.md). Its classes are named as the
 * PostgreSQL backend's: {@code RocksArchive}, {@code RocksWriter}, {@code RocksReader}, {@code RocksPage},
 * {@code RocksRetention}, {@code RocksMetrics}, {@code RocksErrors}.
 *
 * <p>In flow order. Opening: {@link io.wakurelay.archive.rocksdb.RocksArchive#open} opens the {@code ArchiveDatabase}
 * (whose column families {@code Keys} lays out and {@code MessageFamilies} names for the writer, the reader and
 * retention) and loads the {@code ArchiveCounters} (persistent). Writing: the {@code RocksWriter} (the core's
 * single writer) has {@code BatchAssembler} stage each batch in a RocksDB {@code WriteBatch} and {@code BatchCommitter}
 * commit it. Querying: {@code RocksReader} finds a query with an {@code IndexScan} over a {@code TailRange} under a
 * snapshot of {@code ReadSnapshots} and opens a {@code RocksPage}. Retention: {@code RocksRetention}. Housekeeping:
 * {@code SmallFileMerger} with {@code SmallFileRuns}, {@code DirectIoProbe}. Meters: {@code RocksMetrics} beside the
 * common ones. Test seams: {@code ArchiveHooks}; RocksDB's errors in words: {@code RocksErrors}.
 */
package io.wakurelay.archive.rocksdb;
