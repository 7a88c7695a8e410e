package io.wakurelay.archive;

/**
 * What one retention pass did.
 *
 * @param entriesVisited time-index entries read; equal to deletedMessages (plus at most one per chunk) because
 *                       a pass reads only the range it deletes
 */
public record RetentionRun(RetentionPolicy policy, long deletedMessages, long deletedBytes, long entriesVisited) {
}
