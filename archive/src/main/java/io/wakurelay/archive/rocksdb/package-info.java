/**
 * The embedded RocksDB archive, the default backend: messages keyed by (timestamp, hash), written in batches with
 * backpressure, queried as Store v3 pages, pruned by a retention policy (docs/archive.md).
 *
 * <p>In flow order. Writing: {@link io.wakurelay.archive.rocksdb.RocksArchive#write} takes the relay's accepted
 * envelopes on the {@code ArchiveWriter}'s thread, {@code BatchAssembler} stages each in a RocksDB {@code WriteBatch}
 * ({@code Keys} lays out the column families of {@code ArchiveDatabase}, which {@code MessageFamilies} names for the
 * writer, the reader and retention), {@code BatchCommitter} and the shared {@code WriteSession} commit it. Querying:
 * {@code StoreReader} finds a query with an {@code IndexScan} over a {@code TailRange} under a snapshot of
 * {@code ReadSnapshots} and opens a {@code RocksStorePage}. Retention: {@code Retention}. Housekeeping:
 * {@code SmallFileMerger} with {@code SmallFileRuns}. Counting: {@code ArchiveCounters} (persistent),
 * {@code ArchiveMetrics}. Test seams: {@code ArchiveHooks}; RocksDB's errors in words: {@code Errors}.
 */
package io.wakurelay.archive.rocksdb;
