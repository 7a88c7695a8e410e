/**
 * The archive's core: what every backend shares, so that they keep the same promises and a backend writes only what its
 * store does (docs/archive.md, "The seam"; CONTRIBUTING.md, "Adding an archive backend").
 *
 * <p>In flow order. {@link io.wakurelay.archive.common.ArchiveCore} is the {@link io.wakurelay.archive.MessageArchive}
 * a backend extends: its write stream passes the {@link io.wakurelay.archive.common.TimestampWindow} (nwaku's archive
 * window) into the backend's {@link io.wakurelay.archive.common.SingleWriter} (the writer thread, one stream at a
 * time, the health of writes, closing), which runs a {@link io.wakurelay.archive.common.WriteSession} (credits, group
 * commit, acknowledgements in commit order, the held batch retried with
 * {@link io.wakurelay.archive.common.RetryBackoff}). A query's page is cut by a {@link io.wakurelay.archive.common.PageCut}
 * (page size, byte budget, cursor, chronological order), read as an {@link io.wakurelay.archive.common.IndexedPage}
 * and kept in the {@link io.wakurelay.archive.common.OpenPages} until it closes. {@link io.wakurelay.archive.common.ArchiveMeters}
 * with its {@link io.wakurelay.archive.common.ShardCounts} are the meters served under the same names whatever the
 * store. Public for the backends' packages; not for users of the archive.
 */
package io.wakurelay.archive.common;
