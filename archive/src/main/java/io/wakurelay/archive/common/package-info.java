/**
 * What every archive backend shares, so that they keep the same promises: {@link io.wakurelay.archive.common.WriteSession}
 * (credits, group commit, acknowledgements in order, the held batch retried with
 * {@link io.wakurelay.archive.common.RetryBackoff}), and {@link io.wakurelay.archive.common.ArchiveMeters} with its
 * {@link io.wakurelay.archive.common.ShardCounts} (the meters served under the same names whatever the store).
 * Public for the backends' packages; not for users of the archive.
 */
package io.wakurelay.archive.common;
