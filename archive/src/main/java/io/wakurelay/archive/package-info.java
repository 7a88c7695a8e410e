/**
 * The archive seam: what the node's writer pipeline, Store v3 (REST and libp2p), retention, health and metrics see of
 * the message archive, whichever backend stores it (docs/archive.md).
 *
 * <p>In flow order. Configuring: an {@link io.wakurelay.archive.ArchiveConfig} is one record per backend,
 * {@link io.wakurelay.archive.RocksConfig} (with its {@link io.wakurelay.archive.Durability}) or
 * {@link io.wakurelay.archive.PostgresConfig} (as {@code --store-message-db-url} says, parsed by
 * {@link io.wakurelay.archive.StoreDbUrl}), each with the {@link io.wakurelay.archive.CoreConfig} every backend shares
 * (its {@link io.wakurelay.archive.RetentionPolicy}, its timestamp window, its batches). Writing:
 * {@link io.wakurelay.archive.MessageArchive#write} takes the relay's accepted envelopes and acknowledges each
 * committed batch with a {@link io.wakurelay.archive.CommittedBatch}.
 * Querying: a {@link io.wakurelay.archive.StoreQuery} takes one of the node's {@link io.wakurelay.archive.QuerySlots}
 * and opens a {@link io.wakurelay.archive.StorePage} (or a whole {@link io.wakurelay.archive.StoreResponse}) of
 * {@link io.wakurelay.archive.StoredMessage}s. Retention: {@link io.wakurelay.archive.RetentionRun}s. Failures:
 * {@link io.wakurelay.archive.InvalidQueryException} (and {@link io.wakurelay.archive.UnknownCursorException}, a
 * cursor that is not stored, which nwaku's REST answers 500), {@link io.wakurelay.archive.ArchiveClosedException},
 * {@link io.wakurelay.archive.ArchiveStorageException}.
 *
 * <p>The backends: {@code io.wakurelay.archive.rocksdb} (embedded, the default) and {@code io.wakurelay.archive.postgres}
 * (nwaku's schema, for fleets), which build on the archive's core, {@code io.wakurelay.archive.common};
 * {@code io.wakurelay.archive.backends} opens the one a config names. This package depends on none of them.
 */
package io.wakurelay.archive;
