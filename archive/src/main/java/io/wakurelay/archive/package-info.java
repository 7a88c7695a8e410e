/**
 * The embedded RocksDB archive: messages keyed by (timestamp, hash), written in batches with backpressure, queried
 * as Store v3 pages, pruned by a retention policy (docs/archive.md).
 *
 * <p>In flow order. Writing: {@link io.wakurelay.archive.MessageArchive#write} takes the relay's accepted envelopes
 * on the {@code ArchiveWriter}'s thread, {@code BatchAssembler} stages each in a RocksDB {@code WriteBatch}
 * ({@code Keys} lays out the column families of {@code ArchiveDatabase}, which {@code MessageFamilies} names for the
 * writer, the reader and retention), {@code BatchCommitter} and
 * {@code WriteSession} commit it (retried with {@code RetryBackoff} when RocksDB refuses), and each commit is a
 * {@link io.wakurelay.archive.CommittedBatch}. Querying: a {@link io.wakurelay.archive.StoreQuery} takes one of the
 * node's {@link io.wakurelay.archive.QuerySlots}, {@code StoreReader} finds it with an {@code IndexScan} over a
 * {@code TailRange} and opens a {@link io.wakurelay.archive.StorePage} (or a whole
 * {@link io.wakurelay.archive.StoreResponse}) of {@link io.wakurelay.archive.StoredMessage}s. Retention:
 * {@link io.wakurelay.archive.RetentionPolicy}, run by {@code Retention} as {@link io.wakurelay.archive.RetentionRun}s.
 * Counting: {@code ArchiveCounters} (persistent), {@code ArchiveMetrics} and its {@code ShardCounts}.
 */
package io.wakurelay.archive;
